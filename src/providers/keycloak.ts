import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, standardUser, under, type StandardClaims, readsEnv, needs, svgLogo } from './lib/index.js'

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
      style: { brandColor: '#428bca', logo: svgLogo('<path fill="#4d4d4d" d="M7 3h10l5 9-5 9H7l-5-9z"/><path fill="none" stroke-width="2.2" d="M10 7.5 7.5 12l2.5 4.5" stroke="#00b8e3"/><path fill="none" stroke-width="2.2" d="m14 7.5 2.5 4.5-2.5 4.5" stroke="#fff"/>') },
    },
    options,
  )
  return readsEnv(provider, Keycloak, needs('issuer'))
}
