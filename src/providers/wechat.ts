import type { OAuthConfig, OAuthUserConfig, Profile, TokenSet } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, withQuery, readsEnv } from './lib/index.js'

/** WeChat's user info (GET https://api.weixin.qq.com/sns/userinfo). WeChat shares no email. */
export interface WeChatProfile {
  openid: string
  nickname: string
  /** 1 male, 2 female, 0 unknown. */
  sex: number
  province: string
  city: string
  country: string
  headimgurl: string
  privilege: string[]
  unionid?: string
  language?: string
  [key: string]: unknown
}

/** A WeChat API error body (it answers HTTP 200 with these). */
interface WeChatError {
  errcode?: number
  errmsg?: string
}

/**
 * WeChat Login. Needs `clientId` (the AppID), `clientSecret` (the AppSecret); `platformType`
 * `'WebsiteApp'` (QR code login, the default) or `'OfficialAccount'` (inside WeChat).
 */
export default function WeChat(
  options: OAuthUserConfig<WeChatProfile> & { platformType?: 'WebsiteApp' | 'OfficialAccount' } = {},
): OAuthConfig<WeChatProfile> {
  const { platformType = 'WebsiteApp', ...rest } = options
  const website = platformType === 'WebsiteApp'
  const tokenUrl = 'https://api.weixin.qq.com/sns/oauth2/access_token'
  const userinfoUrl = 'https://api.weixin.qq.com/sns/userinfo'
  const check = <T extends WeChatError>(body: T): T => {
    if (body.errcode) throw new Error(`WeChat: error ${body.errcode}: ${body.errmsg ?? ''}`)
    return body
  }
  const provider = mergeProvider<OAuthConfig<WeChatProfile>>(
    {
      id: 'wechat',
      name: 'WeChat',
      type: 'oauth',
      authorization: {
        url: website ? 'https://open.weixin.qq.com/connect/qrconnect' : 'https://open.weixin.qq.com/connect/oauth2/authorize',
        params: { appid: options.clientId, scope: website ? 'snsapi_login' : 'snsapi_userinfo' },
      },
      token: {
        url: tokenUrl,
        // A GET with `appid` and `secret` in the query.
        async request({ params, provider }) {
          const url = withQuery(endpointUrl(provider.token, tokenUrl), {
            appid: provider.clientId ?? '',
            secret: provider.clientSecret ?? '',
            code: params.code ?? '',
            grant_type: 'authorization_code',
          })
          const tokens = check(await fetchJson<TokenSet & WeChatError>('WeChat', url))
          return { tokens }
        },
      },
      userinfo: {
        url: userinfoUrl,
        async request({ tokens, provider }) {
          const url = withQuery(endpointUrl(provider.userinfo, userinfoUrl), { access_token: tokens.access_token ?? '', openid: String(tokens.openid ?? '') })
          return check(await fetchJson<WeChatProfile & WeChatError>('WeChat', url)) as unknown as Profile
        },
      },
      checks: ['state'],
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.unionid ?? p.openid, name: p.nickname, email: null, image: p.headimgurl || null }),
      style: { brandColor: '#07c160' },
    },
    rest,
    options,
  )
  return readsEnv(provider, WeChat)
}
