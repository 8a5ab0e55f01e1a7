import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv, needs } from './lib/index.js'

/**
 * What the app's own RESTlet returns for the current user (NetSuite has no userinfo endpoint;
 * a RESTlet built on `N/runtime` getCurrentUser() is the documented way).
 */
export interface NetSuiteProfile {
  id: number | string
  name: string
  email: string
  location?: number
  role?: number
  roleId?: string
  roleCenter?: string
  subsidiary?: number
  department?: number
  contact?: number
  [key: string]: unknown
}

/**
 * Oracle NetSuite (OAuth 2.0 authorization code grant). Needs `accountID` (the account id, e.g.
 * `1234567` or `1234567_SB1`), `clientId`, `clientSecret`, and `userinfo`: the URL of the app's
 * RESTlet that returns the current user.
 */
export default function NetSuite(options: OAuthUserConfig<NetSuiteProfile> & { accountID?: string } = {}): OAuthConfig<NetSuiteProfile> {
  const { accountID, ...rest } = options
  const host = accountID?.toLowerCase().replace(/_/g, '-')
  const provider = mergeProvider<OAuthConfig<NetSuiteProfile>>(
    {
      id: 'netsuite',
      name: 'NetSuite',
      type: 'oauth',
      authorization: {
        url: host ? `https://${host}.app.netsuite.com/app/login/oauth2/authorize.nl` : undefined,
        params: { scope: 'restlets rest_webservices' },
      },
      token: host ? `https://${host}.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token` : undefined,
      userinfo: undefined,
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({ id: String(p.id), name: p.name, email: p.email, image: null }),
      style: { brandColor: '#125580' },
    },
    rest,
    options,
  )
  return readsEnv(provider, NetSuite, needs('accountID'))
}
