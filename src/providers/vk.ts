import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, withQuery, readsEnv } from './lib/index.js'

/** A VK user (the first entry of `users.get`), with `email`, which VK returns in the token response. */
export interface VkProfile {
  id: number
  first_name: string
  last_name: string
  photo_100?: string
  photo_200?: string
  screen_name?: string
  can_access_closed?: boolean
  is_closed?: boolean
  email?: string
  [key: string]: unknown
}

/** The VK API version the requests pin. */
const apiVersion = '5.199'

/** VK (VKontakte, the OAuth of oauth.vk.com). Needs `clientId` (the app id), `clientSecret` (the secure key); scope `email`. */
export default function Vk(options: OAuthUserConfig<VkProfile> = {}): OAuthConfig<VkProfile> {
  const url = `https://api.vk.com/method/users.get?fields=photo_100,screen_name&v=${apiVersion}`
  const provider = mergeProvider<OAuthConfig<VkProfile>>(
    {
      id: 'vk',
      name: 'VK',
      type: 'oauth',
      authorization: { url: `https://oauth.vk.com/authorize?v=${apiVersion}`, params: { scope: 'email' } },
      token: `https://oauth.vk.com/access_token?v=${apiVersion}`,
      userinfo: {
        url,
        async request({ tokens, provider }) {
          const body = await fetchJson<{ response?: VkProfile[]; error?: { error_msg: string } }>(
            'VK',
            withQuery(endpointUrl(provider.userinfo, url), { access_token: tokens.access_token ?? '' }),
          )
          if (!body.response?.[0]) throw new Error(`VK: users.get failed: ${body.error?.error_msg ?? 'no user'}`)
          const email = typeof tokens.email === 'string' ? tokens.email : undefined
          return { ...body.response[0], email } as unknown as Profile
        },
      },
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_post' },
      jwks_endpoint: undefined,
      profile: (p, tokens) => ({
        id: String(p.id),
        name: [p.first_name, p.last_name].filter(Boolean).join(' ') || null,
        email: p.email ?? (typeof tokens.email === 'string' ? tokens.email : null),
        image: p.photo_100 ?? null,
      }),
      style: { brandColor: '#0077ff' },
    },
    options,
  )
  return readsEnv(provider, Vk)
}
