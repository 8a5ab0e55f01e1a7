import type { OAuthConfig, OAuthUserConfig, TokenSet } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, trimSlash, readsEnv, svgLogo } from './lib/index.js'

/** GitHub's user object (GET /user), https://docs.github.com/en/rest/users/users */
export interface GitHubProfile {
  id: number
  login: string
  node_id: string
  avatar_url: string
  html_url: string
  type: string
  site_admin: boolean
  name: string | null
  company: string | null
  blog: string | null
  location: string | null
  email: string | null
  bio: string | null
  twitter_username?: string | null
  public_repos: number
  followers: number
  following: number
  created_at: string
  updated_at: string
  [claim: string]: unknown
}

/** One entry of GET /user/emails. */
export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: 'public' | 'private' | null
}

/**
 * GitHub (github.com or GitHub Enterprise Server: `enterprise.baseUrl`). Needs `clientId`, `clientSecret`.
 * Tokens: an OAuth App's tokens do not expire and come with no refresh token; a GitHub App with expiring user tokens gives 8-hour access tokens and a 6-month refresh token that rotates on each use.
 */
export default function GitHub(
  options: OAuthUserConfig<GitHubProfile> & { enterprise?: { baseUrl?: string } } = {},
): OAuthConfig<GitHubProfile> {
  const { enterprise, ...rest } = options
  const web = trimSlash(enterprise?.baseUrl ?? 'https://github.com')
  const api = enterprise?.baseUrl ? `${web}/api/v3` : 'https://api.github.com'
  const headers = (tokens: TokenSet) => ({
    Authorization: `Bearer ${tokens.access_token}`,
    'User-Agent': 'latchkey',
    Accept: 'application/vnd.github+json',
  })
  const provider = mergeProvider<OAuthConfig<GitHubProfile>>(
    {
      id: 'github',
      name: 'GitHub',
      type: 'oauth',
      authorization: { url: `${web}/login/oauth/authorize`, params: { scope: 'read:user user:email' } },
      token: `${web}/login/oauth/access_token`,
      userinfo: {
        url: `${api}/user`,
        async request({ tokens, provider }) {
          const url = endpointUrl(provider.userinfo, `${api}/user`)
          const profile = await fetchJson<GitHubProfile>('GitHub', url, { headers: headers(tokens) })
          if (!profile.email) {
            // The public email is private or unset: ask /user/emails (scope user:email) for the primary one.
            const emails = await fetchJson<GitHubEmail[]>('GitHub', `${url}/emails`, { headers: headers(tokens) }).catch(() => [])
            profile.email = (emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified))?.email ?? null
          }
          return profile
        },
      },
      checks: ['pkce', 'state'],
      jwks_endpoint: undefined,
      profile: (p) => ({ id: String(p.id), name: p.name ?? p.login, email: p.email, image: p.avatar_url }),
      style: { brandColor: '#24292f', logo: svgLogo('<circle cx="12" cy="12" r="12" fill="#24292f"/><path fill="#fff" d="M7.2 5.6c1.1.1 2.2.7 3 1.3a8.2 8.2 0 0 1 3.6 0c.8-.6 1.9-1.2 3-1.3.4 1.1.5 2.2.2 3.1.8.9 1.2 2 1.2 3.2 0 3.3-2 4.6-4.6 4.9.5.4.7 1.1.7 1.9v2.9H8.7v-1.5c-2.3.4-3.2-.9-3.6-1.8-.3-.6-.8-1-1.2-1.2.8-.3 1.5.3 1.9.9.5.8 1.3 1.2 2.9.8.1-.6.3-1.1.6-1.4-2.6-.3-4.6-1.6-4.6-4.9 0-1.2.4-2.3 1.2-3.2-.3-.9-.2-2.5 1.3-3.7z"/>') },
    },
    rest,
    options,
  )
  return readsEnv(provider, GitHub)
}
