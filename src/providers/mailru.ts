import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, withQuery, readsEnv } from './lib/index.js'

/** Mail.ru's userinfo answer (GET https://oauth.mail.ru/userinfo). */
export interface MailRuProfile {
  id: string
  client_id?: string
  email: string
  name: string
  first_name?: string
  last_name?: string
  nickname?: string
  gender?: 'm' | 'f'
  birthday?: string
  locale?: string
  image?: string
  [key: string]: unknown
}

/** Mail.ru (VK's Mail.ru OAuth). Needs `clientId`, `clientSecret`; scope `userinfo`. */
export default function MailRu(options: OAuthUserConfig<MailRuProfile> = {}): OAuthConfig<MailRuProfile> {
  const url = 'https://oauth.mail.ru/userinfo'
  const provider = mergeProvider<OAuthConfig<MailRuProfile>>(
    {
      id: 'mailru',
      name: 'Mail.ru',
      type: 'oauth',
      authorization: { url: 'https://oauth.mail.ru/login', params: { scope: 'userinfo' } },
      token: 'https://oauth.mail.ru/token',
      userinfo: {
        url,
        // The token goes in the query string.
        async request({ tokens, provider }) {
          const target = withQuery(endpointUrl(provider.userinfo, url), { access_token: tokens.access_token ?? '' })
          return (await fetchJson('Mail.ru', target)) as Profile
        },
      },
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.name, email: p.email, image: p.image ?? null }),
      style: { brandColor: '#168de2' },
    },
    options,
  )
  return readsEnv(provider, MailRu)
}
