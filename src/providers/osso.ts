import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, under, readsEnv, needs } from './lib/index.js'

/** The user Osso returns from GET /oauth/me after SAML SSO. */
export interface OssoProfile {
  id: string
  email: string
  idp: string
  requested?: { domain?: string; email?: string }
  [key: string]: unknown
}

/** Osso (open-source SAML SSO behind OAuth 2.0). Needs `issuer` (the Osso instance URL), `clientId`, `clientSecret`. */
export default function Osso(options: OAuthUserConfig<OssoProfile> = {}): OAuthConfig<OssoProfile> {
  const provider = mergeProvider<OAuthConfig<OssoProfile>>(
    {
      id: 'osso',
      name: 'Osso',
      type: 'oauth',
      issuer: options.issuer,
      authorization: under(options.issuer, '/oauth/authorize'),
      token: under(options.issuer, '/oauth/token'),
      userinfo: under(options.issuer, '/oauth/me'),
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: null, email: p.email, image: null }),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, Osso, needs('issuer'))
}
