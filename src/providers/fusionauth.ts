import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, under, type StandardClaims, readsEnv, needs, takes } from './lib/index.js'

/** Claims of a FusionAuth application (ID token / `/oauth2/userinfo`). */
export interface FusionAuthProfile extends StandardClaims {
  applicationId?: string
  authenticationType?: string
  roles?: string[]
  tid?: string
  sid?: string
}

/**
 * FusionAuth. Needs `issuer` (the instance URL), `clientId`, `clientSecret`; `tenantId` selects
 * a tenant's discovery document when the instance has several.
 */
export default function FusionAuth(
  options: OIDCUserConfig<FusionAuthProfile> & { tenantId?: string } = {},
): OIDCConfig<FusionAuthProfile> {
  const { tenantId, ...rest } = options
  const wellKnown = discovery(options.issuer)
  const provider = mergeProvider<OIDCConfig<FusionAuthProfile>>(
    {
      id: 'fusionauth',
      name: 'FusionAuth',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: wellKnown && tenantId ? `${wellKnown}?tenantId=${encodeURIComponent(tenantId)}` : wellKnown,
      jwks_endpoint: under(options.issuer, '/.well-known/jwks.json'),
      authorization: { params: { scope: 'openid offline_access email profile' } },
      profile: (p) => ({
        id: p.sub,
        name: p.name ?? p.preferred_username ?? null,
        email: p.email ?? null,
        image: p.picture ?? null,
      }),
      style: { brandColor: '#000000' },
    },
    rest,
    options,
  )
  return readsEnv(provider, FusionAuth, needs('issuer'), takes('tenantId'))
}
