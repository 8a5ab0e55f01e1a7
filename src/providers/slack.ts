import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv } from './lib/index.js'

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
      style: { brandColor: '#4a154b' },
    },
    options,
  )
  return readsEnv(provider, Slack)
}
