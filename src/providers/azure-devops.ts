import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, readsEnv } from './lib/index.js'

/** The Azure DevOps profile of the user (GET /_apis/profile/profiles/me?details=true). */
export interface AzureDevOpsProfile {
  id: string
  displayName: string
  publicAlias: string
  emailAddress: string
  coreRevision?: number
  timeStamp?: string
  revision?: number
  coreAttributes?: { Avatar?: { value?: { contentType: string; value: string } } }
  [key: string]: unknown
}

/**
 * Azure DevOps Services (its own OAuth 2.0, with a JWT-bearer code exchange). Needs `clientId`
 * (the app id) and `clientSecret` (the app's client secret, a JWT); scope `vso.profile` by default.
 */
export default function AzureDevOps(options: OAuthUserConfig<AzureDevOpsProfile> = {}): OAuthConfig<AzureDevOpsProfile> {
  const tokenUrl = 'https://app.vssps.visualstudio.com/oauth2/token'
  const provider = mergeProvider<OAuthConfig<AzureDevOpsProfile>>(
    {
      id: 'azure-devops',
      name: 'Azure DevOps',
      type: 'oauth',
      authorization: {
        url: 'https://app.vssps.visualstudio.com/oauth2/authorize',
        params: { response_type: 'Assertion', scope: 'vso.profile' },
      },
      token: {
        url: tokenUrl,
        async request({ params, provider, redirectUri }) {
          const body = new URLSearchParams({
            client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
            client_assertion: provider.clientSecret ?? '',
            grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
            assertion: params.code ?? '',
            redirect_uri: redirectUri,
          })
          const tokens = await fetchJson('Azure DevOps', endpointUrl(provider.token, tokenUrl), { method: 'POST', body })
          return { tokens }
        },
      },
      userinfo: 'https://app.vssps.visualstudio.com/_apis/profile/profiles/me?details=true&api-version=7.0',
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => {
        const avatar = p.coreAttributes?.Avatar?.value
        return {
          id: p.id,
          name: p.displayName,
          email: p.emailAddress,
          image: avatar ? `data:${avatar.contentType};base64,${avatar.value}` : null,
        }
      },
      style: { brandColor: '#0078d4' },
    },
    options,
  )
  return readsEnv(provider, AzureDevOps)
}
