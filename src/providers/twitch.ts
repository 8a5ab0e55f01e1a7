import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv } from './lib/index.js'

/** Claims of a Twitch ID token when asked for through the `claims` parameter. */
export interface TwitchProfile extends StandardClaims {
  sub: string
  aud: string
  azp: string
  iss: 'https://id.twitch.tv/oauth2'
  preferred_username: string
  email?: string
  email_verified?: boolean
  picture: string
  updated_at?: string
}

/**
 * Twitch. Needs `clientId`, `clientSecret`. Twitch has no PKCE; the email needs scope `user:read:email`.
 * Tokens: access tokens of a few hours and a refresh token; public clients' refresh tokens expire after 30 days.
 */
export default function Twitch(options: OIDCUserConfig<TwitchProfile> = {}): OIDCConfig<TwitchProfile> {
  const provider = mergeProvider<OIDCConfig<TwitchProfile>>(
    {
      id: 'twitch',
      name: 'Twitch',
      type: 'oidc',
      issuer: 'https://id.twitch.tv/oauth2',
      wellKnown: 'https://id.twitch.tv/oauth2/.well-known/openid-configuration',
      jwks_endpoint: 'https://id.twitch.tv/oauth2/keys',
      authorization: {
        params: {
          scope: 'openid user:read:email',
          claims: JSON.stringify({ id_token: { email: null, email_verified: null, picture: null, preferred_username: null } }),
        },
      },
      checks: ['state', 'nonce'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      profile: (p) => ({ id: p.sub, name: p.preferred_username, email: p.email ?? null, image: p.picture }),
      style: { brandColor: '#9146ff' },
    },
    options,
  )
  return readsEnv(provider, Twitch)
}
