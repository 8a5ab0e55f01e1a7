import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, under, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of an Amazon Cognito user pool (ID token / `/oauth2/userInfo`). */
export interface CognitoProfile extends StandardClaims {
  'cognito:username'?: string
  'cognito:groups'?: string[]
  username?: string
  email_verified?: boolean
}

/**
 * Amazon Cognito user pool. Needs `issuer` (`https://cognito-idp.<region>.amazonaws.com/<user-pool-id>`), `clientId`, `clientSecret`.
 * Tokens: 1-hour access tokens and a refresh token (30 days by default); it does not rotate unless the pool turns rotation on.
 */
export default function Cognito(options: OIDCUserConfig<CognitoProfile> = {}): OIDCConfig<CognitoProfile> {
  const provider = mergeProvider<OIDCConfig<CognitoProfile>>(
    {
      id: 'cognito',
      name: 'Cognito',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: under(options.issuer, '/.well-known/jwks.json'),
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => ({
        id: p.sub,
        name: p.name ?? p['cognito:username'] ?? p.username ?? null,
        email: p.email ?? null,
        image: p.picture ?? null,
      }),
      style: { brandColor: '#c17b9e' },
    },
    options,
  )
  return readsEnv(provider, Cognito, needs('issuer'))
}
