import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, trimSlash, readsEnv, takes, svgLogo } from './lib/index.js'

/** GitLab's current user (GET /api/v4/user). */
export interface GitLabProfile {
  id: number
  username: string
  name: string
  state: string
  avatar_url: string | null
  web_url: string
  email: string
  public_email?: string | null
  created_at?: string
  bio?: string
  location?: string | null
  locked?: boolean
  two_factor_enabled?: boolean
  [key: string]: unknown
}

/**
 * GitLab (gitlab.com, or a self-managed instance given as `issuer`). Needs `clientId`, `clientSecret`.
 * Tokens: 2-hour access tokens and a refresh token that rotates on each use.
 */
export default function GitLab(options: OAuthUserConfig<GitLabProfile> = {}): OAuthConfig<GitLabProfile> {
  const base = trimSlash(options.issuer ?? 'https://gitlab.com')
  const provider = mergeProvider<OAuthConfig<GitLabProfile>>(
    {
      id: 'gitlab',
      name: 'GitLab',
      type: 'oauth',
      authorization: { url: `${base}/oauth/authorize`, params: { scope: 'read_user' } },
      token: `${base}/oauth/token`,
      userinfo: `${base}/api/v4/user`,
      checks: ['pkce', 'state'],
      jwks_endpoint: `${base}/oauth/discovery/keys`,
      profile: (p) => ({ id: String(p.id), name: p.name ?? p.username, email: p.email, image: p.avatar_url }),
      style: { brandColor: '#fc6d26', logo: svgLogo('<rect width="24" height="24" rx="6" fill="#fff"/><path fill="#e24329" d="M12 20.5 8 10.2h8zM5 4l3 6.2H5.2zm14 0-3 6.2h2.8z"/><path fill="#fc6d26" d="M12 20.5 3.4 14l1.8-3.8H8zm0 0 8.6-6.5-1.8-3.8H16z"/><path fill="#fca326" d="M3.4 14l1.8-3.8L3 12.4zm17.2 0-1.8-3.8 2.2 2.2z"/>') },
    },
    options,
  )
  return readsEnv(provider, GitLab, takes('issuer'))
}
