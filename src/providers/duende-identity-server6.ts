import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { identityServer, type IdentityServer4Profile } from './identity-server4.js'
import { readsEnv, needs } from './lib/index.js'

/** Claims of a Duende IdentityServer host (ID token / `/connect/userinfo`): IdentityServer4's. */
export type DuendeISUserProfile = IdentityServer4Profile

/** Duende IdentityServer (v6 and later). Needs `issuer` (the server URL), `clientId`, `clientSecret`. */
export default function DuendeIdentityServer6(options: OIDCUserConfig<DuendeISUserProfile> = {}): OIDCConfig<DuendeISUserProfile> {
  const provider = identityServer({ id: 'duende-identity-server6', name: 'Duende IdentityServer6', brandColor: '#1d4ed8' }, options)
  return readsEnv(provider, DuendeIdentityServer6, needs('issuer'))
}
