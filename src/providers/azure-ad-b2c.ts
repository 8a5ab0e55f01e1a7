import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of an Azure AD B2C user flow (ID token); `emails` holds the sign-in addresses. */
export interface AzureADB2CProfile extends StandardClaims {
  oid?: string
  tfp?: string
  emails?: string[]
  given_name?: string
  family_name?: string
  idp?: string
}

/**
 * Azure AD B2C (Azure Active Directory B2C). Needs `issuer`, the user flow's issuer
 * (`https://<tenant>.b2clogin.com/<tenant-id>/v2.0/`), or `wellKnown` for the flow
 * (`https://<tenant>.b2clogin.com/<tenant>.onmicrosoft.com/<user-flow>/v2.0/.well-known/openid-configuration`), `clientId`, `clientSecret`.
 */
export default function AzureADB2C(options: OIDCUserConfig<AzureADB2CProfile> = {}): OIDCConfig<AzureADB2CProfile> {
  const provider = mergeProvider<OIDCConfig<AzureADB2CProfile>>(
    {
      id: 'azure-ad-b2c',
      name: 'Azure Active Directory B2C',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: undefined,
      authorization: { params: { scope: 'openid offline_access' } },
      profile: (p) => ({
        id: p.sub,
        name: p.name ?? ([p.given_name, p.family_name].filter(Boolean).join(' ') || null),
        email: p.emails?.[0] ?? p.email ?? null,
        image: null,
      }),
      style: { brandColor: '#0072c6' },
    },
    options,
  )
  return readsEnv(provider, AzureADB2C, needs('issuer'))
}
