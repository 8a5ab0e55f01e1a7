import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, under, readsEnv, needs } from './lib/index.js'

/** A Mastodon account (GET /api/v1/accounts/verify_credentials). Mastodon shares no email. */
export interface MastodonProfile {
  id: string
  username: string
  acct: string
  display_name: string
  locked: boolean
  bot: boolean
  created_at: string
  note: string
  url: string
  avatar: string
  avatar_static: string
  header: string
  header_static: string
  followers_count: number
  following_count: number
  statuses_count: number
  last_status_at?: string | null
  source?: Record<string, unknown>
  [key: string]: unknown
}

/** Mastodon (any instance). Needs `issuer` (the instance URL, e.g. `https://mastodon.social`), `clientId`, `clientSecret`. */
export default function Mastodon(options: OAuthUserConfig<MastodonProfile> = {}): OAuthConfig<MastodonProfile> {
  const provider = mergeProvider<OAuthConfig<MastodonProfile>>(
    {
      id: 'mastodon',
      name: 'Mastodon',
      type: 'oauth',
      issuer: options.issuer,
      authorization: { url: under(options.issuer, '/oauth/authorize'), params: { scope: 'read:accounts' } },
      token: under(options.issuer, '/oauth/token'),
      userinfo: under(options.issuer, '/api/v1/accounts/verify_credentials'),
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.display_name || p.username, email: null, image: p.avatar_static ?? p.avatar }),
      style: { brandColor: '#6364ff' },
    },
    options,
  )
  return readsEnv(provider, Mastodon, needs('issuer'))
}
