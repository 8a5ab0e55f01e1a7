/** Set by /password (routes.ts) when its own link or code proves the address; read by the first-proof hook (feature.ts). */
import { requestKey } from '../../kernel/state.js'

/** A proof of the address by this feature itself: the first-proof hook keeps the password it confirms. */
export const ownProof = requestKey<true>('password proved the address')
