import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, type StandardClaims, readsEnv, takes, microsoftLogo } from './lib/index.js'

/** Claims of a Microsoft identity platform v2.0 ID token. */
export interface MicrosoftEntraIDProfile extends StandardClaims {
  sub: string
  /** The user's object id, stable across the apps of a tenant. */
  oid: string
  tid: string
  name: string
  preferred_username: string
  email?: string
  ver?: '2.0'
  roles?: string[]
}

/**
 * Microsoft Entra ID (formerly Azure AD). Needs `clientId`, `clientSecret`; `issuer`
 * (`https://login.microsoftonline.com/<tenant-id>/v2.0`) for a single tenant, default the
 * multi-tenant `common` endpoint.
 * Tokens: access tokens of about an hour; a refresh token with the `offline_access` scope; it rotates on use.
 */
export default function MicrosoftEntraID(options: OIDCUserConfig<MicrosoftEntraIDProfile> = {}): OIDCConfig<MicrosoftEntraIDProfile> {
  const issuer = options.issuer ?? 'https://login.microsoftonline.com/common/v2.0'
  const provider = mergeProvider<OIDCConfig<MicrosoftEntraIDProfile>>(
    {
      id: 'microsoft-entra-id',
      name: 'Microsoft Entra ID',
      type: 'oidc',
      issuer,
      wellKnown: discovery(issuer),
      jwks_endpoint: /\/v2\.0\/?$/.test(issuer) ? issuer.replace(/\/v2\.0\/?$/, '/discovery/v2.0/keys') : undefined,
      authorization: { params: { scope: 'openid profile email User.Read' } },
      profile: (p) => ({ id: p.sub, name: p.name, email: p.email ?? null, image: null }),
      style: { brandColor: '#0072c6', logo: microsoftLogo },
    },
    options,
  )
  return readsEnv(provider, MicrosoftEntraID, takes('issuer'))
}
