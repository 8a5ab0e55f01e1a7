import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { mergeProvider, trimSlash, readsEnv, takes } from './lib/index.js'

/** The WorkOS SSO profile, returned inside the token response (`profile`). */
export interface WorkOSProfile {
  object: 'profile'
  id: string
  organization_id: string | null
  connection_id: string
  connection_type: string
  idp_id: string
  email: string
  first_name: string | null
  last_name: string | null
  role?: { slug: string }
  groups?: string[]
  raw_attributes?: Record<string, unknown>
  [key: string]: unknown
}

/**
 * WorkOS SSO. Needs `clientId`, `clientSecret` (the API key); pass `connection`, `organization`
 * or `provider` in `authorization.params`. `issuer` defaults to `https://api.workos.com/`.
 */
export default function WorkOS(options: OAuthUserConfig<WorkOSProfile> = {}): OAuthConfig<WorkOSProfile> {
  const base = trimSlash(options.issuer ?? 'https://api.workos.com')
  const provider = mergeProvider<OAuthConfig<WorkOSProfile>>(
    {
      id: 'workos',
      name: 'WorkOS',
      type: 'oauth',
      issuer: `${base}/`,
      authorization: `${base}/sso/authorize`,
      token: `${base}/sso/token`,
      userinfo: {
        url: `${base}/sso/profile`,
        // The token response already carries the profile.
        async request({ tokens }) {
          if (!tokens.profile) throw new Error('WorkOS: the token response has no profile')
          return tokens.profile as Profile
        },
      },
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.id,
        name: [p.first_name, p.last_name].filter(Boolean).join(' ') || null,
        email: p.email,
        image: null,
      }),
      style: { brandColor: '#6363f1' },
    },
    options,
  )
  return readsEnv(provider, WorkOS, takes('issuer'))
}
