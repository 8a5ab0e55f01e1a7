import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, under, readsEnv, needs } from './lib/index.js'

/** The SAML user that SAML Jackson (BoxyHQ / Ory Polis) returns from /api/oauth/userinfo. */
export interface BoxyHQSAMLProfile {
  id: string
  email: string
  firstName?: string
  lastName?: string
  roles?: string[]
  groups?: string[]
  requested?: Record<string, string>
  raw?: Record<string, unknown>
  [key: string]: unknown
}

/**
 * BoxyHQ SAML Jackson (SAML SSO behind OAuth 2.0). Needs `issuer` (the Jackson service URL),
 * `clientId` (`dummy` when the tenant and product go in the authorization params), `clientSecret`.
 */
export default function BoxyHQSAML(options: OAuthUserConfig<BoxyHQSAMLProfile> = {}): OAuthConfig<BoxyHQSAMLProfile> {
  const provider = mergeProvider<OAuthConfig<BoxyHQSAMLProfile>>(
    {
      id: 'boxyhq-saml',
      name: 'BoxyHQ SAML',
      type: 'oauth',
      issuer: options.issuer,
      authorization: { url: under(options.issuer, '/api/oauth/authorize'), params: { provider: 'saml' } },
      token: under(options.issuer, '/api/oauth/token'),
      userinfo: under(options.issuer, '/api/oauth/userinfo'),
      checks: ['pkce', 'state'],
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.id,
        name: [p.firstName, p.lastName].filter(Boolean).join(' ') || null,
        email: p.email,
        image: null,
      }),
      style: { brandColor: '#25c2a0' },
    },
    options,
  )
  return readsEnv(provider, BoxyHQSAML, needs('issuer'))
}
