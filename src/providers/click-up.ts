import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** ClickUp's authorized user (GET /api/v2/user). */
export interface ClickUpProfile {
  user: {
    id: number
    username: string
    email: string
    color: string | null
    profilePicture: string | null
    initials?: string
    week_start_day?: number | null
    global_font_support?: boolean
    timezone?: string
  }
  [key: string]: unknown
}

/** ClickUp. Needs `clientId`, `clientSecret`. */
export default function ClickUp(options: OAuthUserConfig<ClickUpProfile> = {}): OAuthConfig<ClickUpProfile> {
  const provider = mergeProvider<OAuthConfig<ClickUpProfile>>(
    {
      id: 'click-up',
      name: 'ClickUp',
      type: 'oauth',
      authorization: 'https://app.clickup.com/api',
      token: 'https://api.clickup.com/api/v2/oauth/token',
      userinfo: 'https://api.clickup.com/api/v2/user',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: String(p.user.id),
        name: p.user.username,
        email: p.user.email,
        image: p.user.profilePicture,
      }),
      style: { brandColor: '#7b68ee' },
    },
    options,
  )
  return readsEnv(provider, ClickUp)
}
