import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, readsEnv } from './lib/index.js'

/** Mailchimp's OAuth metadata (GET https://login.mailchimp.com/oauth2/metadata). */
export interface MailchimpProfile {
  dc: string
  role: string
  accountname: string
  user_id: number
  login: { email: string; avatar: string | null; login_id: number; login_name: string; login_email: string }
  login_url: string
  api_endpoint: string
  [key: string]: unknown
}

/** Mailchimp (Intuit Mailchimp Marketing API). Needs `clientId`, `clientSecret`. */
export default function Mailchimp(options: OAuthUserConfig<MailchimpProfile> = {}): OAuthConfig<MailchimpProfile> {
  const url = 'https://login.mailchimp.com/oauth2/metadata'
  const provider = mergeProvider<OAuthConfig<MailchimpProfile>>(
    {
      id: 'mailchimp',
      name: 'Mailchimp',
      type: 'oauth',
      authorization: 'https://login.mailchimp.com/oauth2/authorize',
      token: 'https://login.mailchimp.com/oauth2/token',
      userinfo: {
        url,
        // The metadata endpoint wants `Authorization: OAuth <token>`.
        async request({ tokens, provider }) {
          return (await fetchJson('Mailchimp', endpointUrl(provider.userinfo, url), { headers: { Authorization: `OAuth ${tokens.access_token}` } })) as Profile
        },
      },
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: String(p.login.login_id), name: p.accountname, email: p.login.email, image: p.login.avatar }),
      style: { brandColor: '#ffe01b' },
    },
    options,
  )
  return readsEnv(provider, Mailchimp)
}
