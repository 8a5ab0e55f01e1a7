import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { identityServer, type IdentityServer4Profile } from './identity-server4.js'

/** Claims of a Duende IdentityServer host (ID token / `/connect/userinfo`): IdentityServer4's. */
export type DuendeISUserProfile = IdentityServer4Profile

/** Duende IdentityServer (v6 and later). Needs `issuer` (the server URL), `clientId`, `clientSecret`. */
export default function DuendeIdentityServer6(options: OIDCUserConfig<DuendeISUserProfile>): OIDCConfig<DuendeISUserProfile> {
  return identityServer({ id: 'duende-identity-server6', name: 'Duende IdentityServer6', brandColor: '#1d4ed8' }, options)
}
