import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, under, readsEnv, needs } from './lib/index.js'

/** The `ocs.data` of Nextcloud's GET /ocs/v2.php/cloud/user. */
export interface NextcloudProfile {
  id: string
  enabled?: boolean
  displayname: string | null
  email: string | null
  phone?: string
  address?: string
  website?: string
  twitter?: string
  groups?: string[]
  language?: string
  locale?: string
  quota?: Record<string, number | string>
  [key: string]: unknown
}

/** Nextcloud (a server as OAuth 2.0 provider). Needs `issuer` (the server URL), `clientId`, `clientSecret`. */
export default function Nextcloud(options: OAuthUserConfig<NextcloudProfile> = {}): OAuthConfig<NextcloudProfile> {
  const base = options.issuer
  const url = under(base, '/ocs/v2.php/cloud/user?format=json')
  const provider = mergeProvider<OAuthConfig<NextcloudProfile>>(
    {
      id: 'nextcloud',
      name: 'Nextcloud',
      type: 'oauth',
      issuer: base,
      authorization: under(base, '/apps/oauth2/authorize'),
      token: under(base, '/apps/oauth2/api/v1/token'),
      userinfo: {
        url,
        // The OCS API answers only with the OCS-APIRequest header; the user is in ocs.data.
        async request({ tokens, provider }) {
          const body = await fetchJson<{ ocs: { data: NextcloudProfile } }>('Nextcloud', endpointUrl(provider.userinfo, url ?? ''), {
            headers: { Authorization: `Bearer ${tokens.access_token}`, 'OCS-APIRequest': 'true' },
          })
          return body.ocs.data as unknown as Profile
        },
      },
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({
        id: p.id,
        name: p.displayname,
        email: p.email,
        image: base ? `${base.replace(/\/+$/, '')}/avatar/${encodeURIComponent(p.id)}/64` : null,
      }),
      style: { brandColor: '#0082c9' },
    },
    options,
  )
  return readsEnv(provider, Nextcloud, needs('issuer'))
}
