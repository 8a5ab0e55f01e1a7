import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv } from './lib/index.js'

/** Claims of "Sign In with LinkedIn using OpenID Connect" (ID token / `/v2/userinfo`). */
export interface LinkedInProfile extends StandardClaims {
  sub: string
  name: string
  given_name: string
  family_name: string
  picture?: string
  locale?: string
  email: string
  email_verified: boolean
}

/**
 * LinkedIn (Sign In with LinkedIn using OpenID Connect). Needs `clientId`, `clientSecret`.
 * Tokens: 60-day access tokens; refresh tokens only for approved partner apps.
 */
export default function LinkedIn(options: OIDCUserConfig<LinkedInProfile> = {}): OIDCConfig<LinkedInProfile> {
  const provider = mergeProvider<OIDCConfig<LinkedInProfile>>(
    {
      id: 'linkedin',
      name: 'LinkedIn',
      type: 'oidc',
      issuer: 'https://www.linkedin.com/oauth',
      wellKnown: 'https://www.linkedin.com/oauth/.well-known/openid-configuration',
      jwks_endpoint: 'https://www.linkedin.com/oauth/openid/jwks',
      authorization: { params: { scope: 'openid profile email' } },
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      profile: (p) => ({ id: p.sub, name: p.name, email: p.email, image: p.picture ?? null }),
      style: { brandColor: '#0a66c2' },
    },
    options,
  )
  return readsEnv(provider, LinkedIn)
}
