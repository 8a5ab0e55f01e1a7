import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Patreon's API v2 identity (GET /api/oauth2/v2/identity with `fields[user]`), JSON:API shaped. */
export interface PatreonProfile {
  data: {
    id: string
    type: 'user'
    attributes: {
      email?: string
      full_name: string
      first_name?: string
      last_name?: string
      image_url: string
      thumb_url?: string
      url?: string
      is_email_verified?: boolean
      vanity?: string | null
    }
  }
  links?: { self: string }
  [key: string]: unknown
}

/** Patreon. Needs `clientId`, `clientSecret`; scopes `identity identity[email]`. */
export default function Patreon(options: OAuthUserConfig<PatreonProfile> = {}): OAuthConfig<PatreonProfile> {
  const provider = mergeProvider<OAuthConfig<PatreonProfile>>(
    {
      id: 'patreon',
      name: 'Patreon',
      type: 'oauth',
      authorization: { url: 'https://www.patreon.com/oauth2/authorize', params: { scope: 'identity identity[email]' } },
      token: 'https://www.patreon.com/api/oauth2/token',
      userinfo: 'https://www.patreon.com/api/oauth2/v2/identity?fields%5Buser%5D=email,full_name,image_url,is_email_verified',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.data.id,
        name: p.data.attributes.full_name,
        email: p.data.attributes.email ?? null,
        image: p.data.attributes.image_url,
      }),
      style: { brandColor: '#ff424d' },
    },
    options,
  )
  return readsEnv(provider, Patreon)
}
