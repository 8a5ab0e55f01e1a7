import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, under, type StandardClaims, readsEnv, takes } from './lib/index.js'

/** Salesforce's userinfo answer (`/services/oauth2/userinfo`). `sub` is the identity URL. */
export interface SalesforceProfile extends StandardClaims {
  sub: string
  user_id: string
  organization_id: string
  preferred_username: string
  nickname: string
  name: string
  email: string
  email_verified: boolean
  picture: string
  photos?: { picture: string; thumbnail: string }
  user_type?: string
  zoneinfo?: string
}

/**
 * Salesforce. Needs `clientId`, `clientSecret`; `issuer` for a My Domain or `https://test.salesforce.com` (sandbox).
 * Tokens: a refresh token only with the `refresh_token` (or `offline_access`) scope; access tokens last as long as the org's session timeout.
 */
export default function Salesforce(options: OIDCUserConfig<SalesforceProfile> = {}): OIDCConfig<SalesforceProfile> {
  const issuer = options.issuer ?? 'https://login.salesforce.com'
  const provider = mergeProvider<OIDCConfig<SalesforceProfile>>(
    {
      id: 'salesforce',
      name: 'Salesforce',
      type: 'oidc',
      issuer,
      wellKnown: discovery(issuer),
      jwks_endpoint: under(issuer, '/id/keys'),
      authorization: { params: { scope: 'openid api refresh_token' } },
      idToken: false,
      profile: (p) => ({ id: p.user_id, name: p.name, email: p.email, image: p.picture ?? null }),
      style: { brandColor: '#00a1e0' },
    },
    options,
  )
  return readsEnv(provider, Salesforce, takes('issuer'))
}
