import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** The Threads user (GET https://graph.threads.net/v1.0/me with `fields`). Threads shares no email. */
export interface ThreadsProfile {
  id: string
  username: string
  name?: string
  threads_profile_picture_url?: string
  threads_biography?: string
  [key: string]: unknown
}

/** Threads (Meta's Threads API). Needs `clientId` (the Threads app id), `clientSecret`; scope `threads_basic`. */
export default function Threads(options: OAuthUserConfig<ThreadsProfile> = {}): OAuthConfig<ThreadsProfile> {
  const provider = mergeProvider<OAuthConfig<ThreadsProfile>>(
    {
      id: 'threads',
      name: 'Threads',
      type: 'oauth',
      authorization: { url: 'https://threads.com/oauth/authorize', params: { scope: 'threads_basic' } },
      token: 'https://graph.threads.net/oauth/access_token',
      userinfo: 'https://graph.threads.net/v1.0/me?fields=id,username,name,threads_profile_picture_url,threads_biography',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.name || p.username, email: null, image: p.threads_profile_picture_url ?? null }),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, Threads)
}
