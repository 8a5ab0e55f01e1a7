import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Pipedrive's current user (GET https://api.pipedrive.com/v1/users/me). */
export interface PipedriveProfile {
  success: boolean
  data: {
    id: number
    name: string
    email: string
    icon_url: string | null
    default_currency?: string
    lang?: number
    locale?: string
    phone?: string | null
    activated?: boolean
    is_admin?: number
    active_flag?: boolean
    timezone_name?: string
    company_id?: number
    company_name?: string
    company_domain?: string
  }
  [key: string]: unknown
}

/** Pipedrive. Needs `clientId`, `clientSecret` (sent as HTTP Basic). */
export default function Pipedrive(options: OAuthUserConfig<PipedriveProfile> = {}): OAuthConfig<PipedriveProfile> {
  const provider = mergeProvider<OAuthConfig<PipedriveProfile>>(
    {
      id: 'pipedrive',
      name: 'Pipedrive',
      type: 'oauth',
      authorization: 'https://oauth.pipedrive.com/oauth/authorize',
      token: 'https://oauth.pipedrive.com/oauth/token',
      userinfo: 'https://api.pipedrive.com/v1/users/me',
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({ id: String(p.data.id), name: p.data.name, email: p.data.email, image: p.data.icon_url }),
      style: { brandColor: '#017737' },
    },
    options,
  )
  return readsEnv(provider, Pipedrive)
}
