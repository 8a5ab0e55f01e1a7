import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv } from './lib/index.js'

/** Claims of "Sign in with SimpleLogin" (userinfo); `email` may be a SimpleLogin alias. */
export interface SimpleLoginProfile extends StandardClaims {
  id: number
  sub: string
  email: string
  email_verified: boolean
  name: string
  avatar_url: string | null
  client: string
}

/** SimpleLogin. Needs `clientId` (the app id), `clientSecret`. */
export default function SimpleLogin(options: OIDCUserConfig<SimpleLoginProfile> = {}): OIDCConfig<SimpleLoginProfile> {
  const provider = mergeProvider<OIDCConfig<SimpleLoginProfile>>(
    {
      id: 'simplelogin',
      name: 'SimpleLogin',
      type: 'oidc',
      issuer: 'https://app.simplelogin.io',
      wellKnown: 'https://app.simplelogin.io/.well-known/openid-configuration',
      jwks_endpoint: undefined,
      authorization: { params: { scope: 'openid profile email' } },
      checks: ['state', 'nonce'],
      profile: (p) => ({ id: p.sub, name: p.name, email: p.email, image: p.avatar_url ?? null }),
      style: { brandColor: '#e3156a' },
    },
    options,
  )
  return readsEnv(provider, SimpleLogin)
}
