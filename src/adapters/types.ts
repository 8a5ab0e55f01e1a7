import type { Adapter } from '../core/types.js'

/** An adapter that implements every method of the contract, plus latchkey's `deleteAuthenticator`, `deleteSessionsByUserId` and `listSessionsByUserId`. */
export type CompleteAdapter = Required<Adapter>
