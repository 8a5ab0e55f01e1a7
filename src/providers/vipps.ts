import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, type StandardClaims, readsEnv, takes } from './lib/index.js'

/** Vipps MobilePay Login's userinfo answer (`/vipps-userinfo-api/userinfo`), by the scopes asked. */
export interface VippsProfile extends StandardClaims {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  birthdate?: string
  nin?: string
  sid?: string
  accounts?: Array<{ account_name: string; account_number: string; bank_name: string }>
}

/**
 * Vipps MobilePay Login. Needs `clientId`, `clientSecret`; `issuer` for the test environment
 * (`https://apitest.vipps.no/access-management-1.0/access/`). The ID token holds only `sub`, so the
 * profile comes from the userinfo endpoint.
 */
export default function Vipps(options: OIDCUserConfig<VippsProfile> = {}): OIDCConfig<VippsProfile> {
  const issuer = options.issuer ?? 'https://api.vipps.no/access-management-1.0/access/'
  const provider = mergeProvider<OIDCConfig<VippsProfile>>(
    {
      id: 'vipps',
      name: 'Vipps',
      type: 'oidc',
      issuer,
      wellKnown: discovery(issuer),
      jwks_endpoint: undefined,
      authorization: { params: { scope: 'openid name email' } },
      idToken: false,
      checks: ['pkce', 'state', 'nonce'],
      profile: (p) => ({ id: p.sub, name: p.name ?? null, email: p.email ?? null, image: null }),
      style: { brandColor: '#ff5b24' },
    },
    options,
  )
  return readsEnv(provider, Vipps, takes('issuer'))
}
