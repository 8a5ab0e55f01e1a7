import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, readsEnv, svgLogo } from './lib/index.js'

/** A Graph API user (GET /me?fields=id,name,email,picture). */
export interface FacebookProfile {
  id: string
  name: string
  email?: string
  first_name?: string
  last_name?: string
  picture?: { data: { url: string; height?: number; width?: number; is_silhouette?: boolean } }
  [key: string]: unknown
}

/**
 * Facebook Login. Needs `clientId` (the app id), `clientSecret`; scope `email`.
 * Tokens: no refresh token: user tokens last about 60 days (long-lived) and are renewed by signing in again.
 */
export default function Facebook(options: OAuthUserConfig<FacebookProfile> = {}): OAuthConfig<FacebookProfile> {
  const graph = 'https://graph.facebook.com'
  const provider = mergeProvider<OAuthConfig<FacebookProfile>>(
    {
      id: 'facebook',
      name: 'Facebook',
      type: 'oauth',
      authorization: { url: 'https://www.facebook.com/v21.0/dialog/oauth', params: { scope: 'email' } },
      token: `${graph}/v21.0/oauth/access_token`,
      userinfo: {
        url: `${graph}/me`,
        params: { fields: 'id,name,email,picture' },
        async request({ tokens, provider }) {
          const endpoint = typeof provider.userinfo === 'object' ? provider.userinfo : undefined
          const url = new URL(endpointUrl(provider.userinfo, `${graph}/me`))
          url.searchParams.set('fields', String(endpoint?.params?.fields ?? 'id,name,email,picture'))
          return (await fetchJson('Facebook', url.href, { headers: { Authorization: `Bearer ${tokens.access_token}` } })) as Profile
        },
      },
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.name, email: p.email ?? null, image: p.picture?.data?.url ?? null }),
      style: { brandColor: '#0866ff', logo: svgLogo('<circle cx="12" cy="12" r="12" fill="#0866ff"/><path fill="none" stroke="#fff" stroke-width="2.8" d="M13.2 23.4V10.6c0-1.8.9-2.8 2.8-2.8h1.6M9.4 13.6h7.4"/>') },
    },
    options,
  )
  return readsEnv(provider, Facebook)
}
