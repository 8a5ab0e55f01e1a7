import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv, svgLogo } from './lib/index.js'

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
      style: { brandColor: '#9146ff', logo: svgLogo('<rect width="24" height="24" rx="5" fill="#9146ff"/><path fill="#fff" d="M6.5 4 5 7.5v11h3.8V21h2.2l2.5-2.5h3.2l4.3-4.3V4z"/><path fill="#9146ff" d="M11 8h1.8v4.6H11zm4.4 0h1.8v4.6h-1.8z"/>') },
    },
    options,
  )
  return readsEnv(provider, Twitch)
}
