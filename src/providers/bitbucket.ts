import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, readsEnv, svgLogo } from './lib/index.js'

/** Bitbucket Cloud's current user (GET /2.0/user), with `email` added from /2.0/user/emails. */
export interface BitbucketProfile {
  uuid: string
  account_id: string
  username?: string
  nickname: string
  display_name: string
  type: 'user'
  account_status?: string
  created_on?: string
  links: { avatar: { href: string }; html?: { href: string }; self?: { href: string } }
  email?: string | null
  [key: string]: unknown
}

/** Bitbucket Cloud. Needs `clientId` (the consumer key), `clientSecret`; scopes `account email`. */
export default function Bitbucket(options: OAuthUserConfig<BitbucketProfile> = {}): OAuthConfig<BitbucketProfile> {
  const provider = mergeProvider<OAuthConfig<BitbucketProfile>>(
    {
      id: 'bitbucket',
      name: 'Bitbucket',
      type: 'oauth',
      authorization: { url: 'https://bitbucket.org/site/oauth2/authorize', params: { scope: 'account email' } },
      token: 'https://bitbucket.org/site/oauth2/access_token',
      userinfo: {
        url: 'https://api.bitbucket.org/2.0/user',
        async request({ tokens, provider }) {
          const headers = { Authorization: `Bearer ${tokens.access_token}` }
          const url = endpointUrl(provider.userinfo, 'https://api.bitbucket.org/2.0/user')
          const user = await fetchJson<BitbucketProfile>('Bitbucket', url, { headers })
          const emails = await fetchJson<{ values: Array<{ email: string; is_primary: boolean; is_confirmed: boolean }> }>(
            'Bitbucket',
            `${url}/emails`,
            { headers },
          ).catch(() => ({ values: [] }))
          user.email = emails.values.find((e) => e.is_primary && e.is_confirmed)?.email ?? null
          return user as unknown as Profile
        },
      },
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.uuid, name: p.display_name ?? p.nickname, email: p.email ?? null, image: p.links?.avatar?.href ?? null }),
      style: { brandColor: '#205081', logo: svgLogo('<rect width="24" height="24" rx="5" fill="#205081"/><path fill="#fff" d="M3.5 4.5h17l-2.6 15H6.1z"/><path fill="#205081" d="M9.6 9.2h4.8l-.8 4.8h-3.2z"/>') },
    },
    options,
  )
  return readsEnv(provider, Bitbucket)
}
