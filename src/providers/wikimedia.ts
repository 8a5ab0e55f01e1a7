import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** The Wikimedia account (GET /w/rest.php/oauth2/resource/profile). */
export interface WikimediaProfile {
  sub: number | string
  username: string
  editcount: number
  confirmed_email: boolean
  blocked: boolean
  registered: string
  groups: string[]
  rights: string[]
  realname?: string
  email?: string
  [key: string]: unknown
}

/**
 * Wikimedia (a Meta-Wiki OAuth 2.0 consumer, valid on every Wikimedia wiki). Needs `clientId`,
 * `clientSecret`; the email and real name need the consumer's "access real name and email" grant.
 */
export default function Wikimedia(options: OAuthUserConfig<WikimediaProfile> = {}): OAuthConfig<WikimediaProfile> {
  const base = 'https://meta.wikimedia.org/w/rest.php/oauth2'
  const provider = mergeProvider<OAuthConfig<WikimediaProfile>>(
    {
      id: 'wikimedia',
      name: 'Wikimedia',
      type: 'oauth',
      authorization: `${base}/authorize`,
      token: `${base}/access_token`,
      userinfo: `${base}/resource/profile`,
      checks: ['pkce', 'state'],
      jwks_endpoint: undefined,
      profile: (p) => ({ id: String(p.sub), name: p.username, email: p.email ?? null, image: null }),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, Wikimedia)
}
