import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Discord's user object (GET /users/@me); `email` needs scope `email`. */
export interface DiscordProfile {
  id: string
  username: string
  /** "0" for users on the unique-username system. */
  discriminator: string
  global_name: string | null
  avatar: string | null
  bot?: boolean
  mfa_enabled?: boolean
  banner?: string | null
  accent_color?: number | null
  locale?: string
  verified?: boolean
  email?: string | null
  flags?: number
  premium_type?: number
  public_flags?: number
  [key: string]: unknown
}

/** The user's avatar on Discord's CDN, or the default avatar when none is set. */
function avatarUrl(p: DiscordProfile): string {
  if (p.avatar) {
    return `https://cdn.discordapp.com/avatars/${p.id}/${p.avatar}.${p.avatar.startsWith('a_') ? 'gif' : 'png'}`
  }
  const index = p.discriminator === '0' || !p.discriminator ? Number((BigInt(p.id) >> 22n) % 6n) : Number(p.discriminator) % 5
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`
}

/**
 * Discord. Needs `clientId`, `clientSecret`; scopes `identify email`.
 * Tokens: access tokens of about a week and a refresh token that rotates on each use.
 */
export default function Discord(options: OAuthUserConfig<DiscordProfile> = {}): OAuthConfig<DiscordProfile> {
  const provider = mergeProvider<OAuthConfig<DiscordProfile>>(
    {
      id: 'discord',
      name: 'Discord',
      type: 'oauth',
      authorization: { url: 'https://discord.com/oauth2/authorize', params: { scope: 'identify email' } },
      token: 'https://discord.com/api/oauth2/token',
      userinfo: 'https://discord.com/api/users/@me',
      checks: ['pkce', 'state'],
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.global_name ?? p.username, email: p.email ?? null, image: avatarUrl(p) }),
      style: { brandColor: '#5865f2' },
    },
    options,
  )
  return readsEnv(provider, Discord)
}
