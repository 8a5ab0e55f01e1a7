import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, standardUser, under, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of a Keycloak realm's ID token and userinfo endpoint. */
export interface KeycloakProfile extends StandardClaims {
  email_verified: boolean
  preferred_username: string
  sid?: string
  azp?: string
  realm_access?: { roles: string[] }
  resource_access?: Record<string, { roles: string[] }>
}

/**
 * Keycloak, the self-hosted identity server. Needs `issuer` (`https://host/realms/<realm>`), `clientId`, `clientSecret`.
 * Tokens: short access tokens (5 minutes by default) and a refresh token on every sign-in; `offline_access` gives an offline token that outlives the SSO session; rotation is a realm setting.
 */
export default function Keycloak(options: OIDCUserConfig<KeycloakProfile> = {}): OIDCConfig<KeycloakProfile> {
  const provider = mergeProvider<OIDCConfig<KeycloakProfile>>(
    {
      id: 'keycloak',
      name: 'Keycloak',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: under(options.issuer, '/protocol/openid-connect/certs'),
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => standardUser(p),
      style: { brandColor: '#428bca' },
    },
    options,
  )
  return readsEnv(provider, Keycloak, needs('issuer'))
}
