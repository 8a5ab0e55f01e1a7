import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv, takes, microsoftLogo } from './lib/index.js'
import type { MicrosoftEntraIDProfile } from './microsoft-entra-id.js'

/** Claims of a Microsoft identity platform v2.0 ID token: Entra ID's, under its former name. */
export type AzureADProfile = MicrosoftEntraIDProfile

/**
 * Azure Active Directory (now Microsoft Entra ID; prefer `microsoft-entra-id`). Needs `clientId`,
 * `clientSecret`; `tenantId` for a single tenant, default `common`.
 * Tokens: access tokens of about an hour; a refresh token with the `offline_access` scope; it rotates on use.
 */
export default function AzureAD(options: OIDCUserConfig<AzureADProfile> & { tenantId?: string } = {}): OIDCConfig<AzureADProfile> {
  const { tenantId = 'common', ...rest } = options
  const base = `https://login.microsoftonline.com/${tenantId}`
  const provider = mergeProvider<OIDCConfig<AzureADProfile>>(
    {
      id: 'azure-ad',
      name: 'Azure Active Directory',
      type: 'oidc',
      issuer: `${base}/v2.0`,
      wellKnown: `${base}/v2.0/.well-known/openid-configuration`,
      jwks_endpoint: `${base}/discovery/v2.0/keys`,
      authorization: { params: { scope: 'openid profile email User.Read' } },
      profile: (p) => ({ id: p.sub, name: p.name, email: p.email ?? null, image: null }),
      style: { brandColor: '#0072c6', logo: microsoftLogo },
    },
    rest,
    options,
  )
  return readsEnv(provider, AzureAD, takes('tenantId'))
}
