import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv, svgLogo } from './lib/index.js'

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
      style: { brandColor: '#5865f2', logo: svgLogo('<rect width="24" height="24" rx="6" fill="#5865f2"/><path fill="#fff" d="M9.2 6.2C7.9 6.4 6.6 6.8 5.4 7.4 3.4 10.3 2.8 13 3 15.6c1.3 1 2.6 1.7 4 2.1l.9-1.4c-.5-.2-1-.4-1.4-.7l.4-.3c3.2 1.5 6.8 1.5 10.2 0l.4.3c-.4.3-.9.5-1.4.7l.9 1.4c1.4-.4 2.7-1.1 4-2.1.3-3-.4-5.8-2.4-8.2-1.2-.6-2.5-1-3.8-1.2l-.4.8a11.5 11.5 0 0 0-4.8 0z"/><g fill="#5865f2"><ellipse cx="9.4" cy="12.2" rx="1.5" ry="1.7"/><ellipse cx="14.6" cy="12.2" rx="1.5" ry="1.7"/></g>') },
    },
    options,
  )
  return readsEnv(provider, Discord)
}
