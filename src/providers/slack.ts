import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv, svgLogo } from './lib/index.js'

/** Claims of "Sign in with Slack" (ID token / `openid.connect.userInfo`). */
export interface SlackProfile extends StandardClaims {
  sub: string
  'https://slack.com/user_id': string
  'https://slack.com/team_id': string
  email: string
  email_verified: boolean
  date_email_verified?: number
  name: string
  picture: string
  given_name?: string
  family_name?: string
  locale?: string
  'https://slack.com/team_name'?: string
  'https://slack.com/team_domain'?: string
  'https://slack.com/user_image_512'?: string
}

/**
 * Slack (Sign in with Slack). Needs `clientId`, `clientSecret`.
 * Tokens: tokens do not expire unless the app turns on token rotation (then 12-hour access tokens and a refresh token).
 */
export default function Slack(options: OIDCUserConfig<SlackProfile> = {}): OIDCConfig<SlackProfile> {
  const provider = mergeProvider<OIDCConfig<SlackProfile>>(
    {
      id: 'slack',
      name: 'Slack',
      type: 'oidc',
      issuer: 'https://slack.com',
      wellKnown: 'https://slack.com/.well-known/openid-configuration',
      jwks_endpoint: 'https://slack.com/openid/connect/keys',
      authorization: { params: { scope: 'openid profile email' } },
      checks: ['nonce', 'state'],
      profile: (p) => ({ id: p.sub, name: p.name, email: p.email, image: p['https://slack.com/user_image_512'] ?? p.picture }),
      style: { brandColor: '#4a154b', logo: svgLogo('<g fill="none" stroke-width="3.2" stroke-linecap="round"><path stroke="#36c5f0" d="M4.6 9.4h9.2"/><path stroke="#2eb67d" d="M14.6 4.6v9.2"/><path stroke="#ecb22e" d="M19.4 14.6h-9.2"/><path stroke="#e01e5a" d="M9.4 19.4v-9.2"/></g><circle cx="9.4" cy="4.6" r="1.6" fill="#36c5f0"/><circle cx="19.4" cy="9.4" r="1.6" fill="#2eb67d"/><circle cx="14.6" cy="19.4" r="1.6" fill="#ecb22e"/><circle cx="4.6" cy="14.6" r="1.6" fill="#e01e5a"/>') },
    },
    options,
  )
  return readsEnv(provider, Slack)
}
