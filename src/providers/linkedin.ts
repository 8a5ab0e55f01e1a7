import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv, svgLogo } from './lib/index.js'

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
      style: { brandColor: '#0a66c2', logo: svgLogo('<rect width="24" height="24" rx="4" fill="#0a66c2"/><circle cx="7.3" cy="7" r="1.7" fill="#fff"/><path fill="none" stroke="#fff" stroke-width="2.8" d="M7.3 9.8V19m4.5-9.2V19m0-5.2c0-2.2 1.3-3.8 3.2-3.8s2.9 1.4 2.9 3.7V19"/>') },
    },
    options,
  )
  return readsEnv(provider, LinkedIn)
}
