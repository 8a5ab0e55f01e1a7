import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, secretOptional, standardUser, under, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of a ZITADEL instance (ID token / `/oidc/v1/userinfo`). */
export interface ZitadelProfile extends StandardClaims {
  preferred_username: string
  email_verified: boolean
  'urn:zitadel:iam:org:project:roles'?: Record<string, Record<string, string>>
}

/**
 * ZITADEL (cloud or self-hosted). Needs `issuer` (`https://<instance>.zitadel.cloud`), `clientId` (and `clientSecret` unless PKCE-only).
 * Tokens: a refresh token with the `offline_access` scope.
 */
export default function Zitadel(options: OIDCUserConfig<ZitadelProfile> = {}): OIDCConfig<ZitadelProfile> {
  const provider = secretOptional(
    mergeProvider<OIDCConfig<ZitadelProfile>>(
      {
        id: 'zitadel',
        name: 'ZITADEL',
        type: 'oidc',
        issuer: options.issuer,
        wellKnown: discovery(options.issuer),
        jwks_endpoint: under(options.issuer, '/oauth/v2/keys'),
        authorization: { params: { scope: 'openid profile email' } },
        profile: (p) => standardUser(p),
        style: { brandColor: '#2d2d46' },
      },
      options,
    ),
  )
  return readsEnv(provider, Zitadel, needs('issuer'))
}
