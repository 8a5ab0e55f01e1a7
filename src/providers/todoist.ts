import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Todoist's current user (GET https://api.todoist.com/api/v1/user). */
export interface TodoistProfile {
  id: string
  email: string
  full_name: string
  avatar_big?: string | null
  avatar_medium?: string | null
  avatar_small?: string | null
  avatar_s640?: string | null
  lang?: string
  tz_info?: { timezone: string; gmt_string: string; hours: number; minutes: number; is_dst: number }
  is_premium?: boolean
  inbox_project_id?: string
  [key: string]: unknown
}

/** Todoist. Needs `clientId`, `clientSecret`; scope `data:read`. */
export default function Todoist(options: OAuthUserConfig<TodoistProfile> = {}): OAuthConfig<TodoistProfile> {
  const provider = mergeProvider<OAuthConfig<TodoistProfile>>(
    {
      id: 'todoist',
      name: 'Todoist',
      type: 'oauth',
      authorization: { url: 'https://todoist.com/oauth/authorize', params: { scope: 'data:read' } },
      token: 'https://todoist.com/oauth/access_token',
      userinfo: 'https://api.todoist.com/api/v1/user',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: String(p.id), name: p.full_name, email: p.email, image: p.avatar_big ?? null }),
      style: { brandColor: '#e44332' },
    },
    options,
  )
  return readsEnv(provider, Todoist)
}
