import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, trimSlash, readsEnv, takes } from './lib/index.js'

/** Zoho Accounts' user info (GET /oauth/user/info). */
export interface ZohoProfile {
  ZUID: number
  Email: string
  Display_Name: string
  First_Name: string
  Last_Name: string
  [key: string]: unknown
}

/**
 * Zoho. Needs `clientId`, `clientSecret`; `issuer` for another data centre's accounts server
 * (e.g. `https://accounts.zoho.eu`), default `https://accounts.zoho.com`.
 */
export default function Zoho(options: OAuthUserConfig<ZohoProfile> = {}): OAuthConfig<ZohoProfile> {
  const base = trimSlash(options.issuer ?? 'https://accounts.zoho.com')
  const url = `${base}/oauth/user/info`
  const provider = mergeProvider<OAuthConfig<ZohoProfile>>(
    {
      id: 'zoho',
      name: 'Zoho',
      type: 'oauth',
      authorization: { url: `${base}/oauth/v2/auth`, params: { scope: 'AaaServer.profile.Read' } },
      token: `${base}/oauth/v2/token`,
      userinfo: {
        url,
        // Zoho's APIs use the `Zoho-oauthtoken` scheme.
        async request({ tokens, provider }) {
          return (await fetchJson('Zoho', endpointUrl(provider.userinfo, url), { headers: { Authorization: `Zoho-oauthtoken ${tokens.access_token}` } })) as Profile
        },
      },
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: String(p.ZUID), name: p.Display_Name, email: p.Email, image: null }),
      style: { brandColor: '#e42527' },
    },
    options,
  )
  return readsEnv(provider, Zoho, takes('issuer'))
}
