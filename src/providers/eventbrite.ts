import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Eventbrite's current user (GET /v3/users/me/). */
export interface EventbriteProfile {
  id: string
  name: string
  first_name: string
  last_name: string
  is_public?: boolean
  image_id: string | null
  emails: Array<{ email: string; verified: boolean; primary: boolean }>
  [key: string]: unknown
}

/** Eventbrite. Needs `clientId` (the API key), `clientSecret`. */
export default function Eventbrite(options: OAuthUserConfig<EventbriteProfile> = {}): OAuthConfig<EventbriteProfile> {
  const provider = mergeProvider<OAuthConfig<EventbriteProfile>>(
    {
      id: 'eventbrite',
      name: 'Eventbrite',
      type: 'oauth',
      authorization: 'https://www.eventbrite.com/oauth/authorize',
      token: 'https://www.eventbrite.com/oauth/token',
      userinfo: 'https://www.eventbriteapi.com/v3/users/me/',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.id,
        name: p.name,
        email: (p.emails.find((e) => e.primary) ?? p.emails[0])?.email ?? null,
        image: null,
      }),
      style: { brandColor: '#f05537' },
    },
    options,
  )
  return readsEnv(provider, Eventbrite)
}
