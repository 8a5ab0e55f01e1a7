import type { OAuthConfig, OAuthUserConfig, Profile, TokenSet } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, readsEnv, svgLogo } from './lib/index.js'

/** A Notion person user, as the token response's `owner.user` (or GET /v1/users/{id}) gives it. */
export interface NotionProfile {
  object: 'user'
  id: string
  type: 'person'
  name: string | null
  avatar_url: string | null
  person: { email?: string }
  [key: string]: unknown
}

/** The Notion API version sent in the `Notion-Version` header. */
const notionVersion = '2022-06-28'

/**
 * Notion (public integrations). Needs `clientId`, `clientSecret` (sent as HTTP Basic).
 * Tokens: access tokens do not expire; no refresh token.
 */
export default function Notion(options: OAuthUserConfig<NotionProfile> = {}): OAuthConfig<NotionProfile> {
  const api = 'https://api.notion.com/v1'
  const provider = mergeProvider<OAuthConfig<NotionProfile>>(
    {
      id: 'notion',
      name: 'Notion',
      type: 'oauth',
      authorization: { url: `${api}/oauth/authorize`, params: { owner: 'user' } },
      token: {
        url: `${api}/oauth/token`,
        // Notion documents a JSON body with HTTP Basic client authentication.
        async request({ params, provider, redirectUri }) {
          const tokens = await fetchJson<TokenSet>('Notion', endpointUrl(provider.token, `${api}/oauth/token`), {
            method: 'POST',
            headers: {
              Authorization: `Basic ${btoa(`${provider.clientId ?? ''}:${provider.clientSecret ?? ''}`)}`,
              'Content-Type': 'application/json',
              'Notion-Version': notionVersion,
            },
            body: JSON.stringify({ grant_type: 'authorization_code', code: params.code, redirect_uri: redirectUri }),
          })
          return { tokens }
        },
      },
      userinfo: {
        url: `${api}/users`,
        // The token response already names the user who authorized (owner.user); ask for the
        // full user object by its id, falling back to what the token response gave.
        async request({ tokens, provider }) {
          const owner = (tokens.owner as { user?: NotionProfile } | undefined)?.user
          if (!owner) throw new Error('Notion: the token response has no owner.user (not a user-owned integration)')
          const full = await fetchJson<NotionProfile>('Notion', `${endpointUrl(provider.userinfo, `${api}/users`)}/${owner.id}`, {
            headers: { Authorization: `Bearer ${tokens.access_token}`, 'Notion-Version': notionVersion },
          }).catch(() => owner)
          return full as unknown as Profile
        },
      },
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_basic' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.name, email: p.person?.email ?? null, image: p.avatar_url }),
      style: { brandColor: '#000000', logo: svgLogo('<rect width="24" height="24" rx="5"/><rect x="4.5" y="4" width="15" height="16" rx="1.6" fill="#fff"/><path fill="none" stroke="#000" stroke-width="2" stroke-linejoin="bevel" d="M8.5 17V7.2l7 9.8V7"/><path stroke="#000" stroke-width="1.4" d="M7.2 17h2.6m4.4-10h2.6"/>') },
    },
    options,
  )
  return readsEnv(provider, Notion)
}
