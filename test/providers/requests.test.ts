/**
 * The providers that make their own userinfo or token requests: each is run against a fake
 * `fetch` that checks the request the provider's API documents and answers like the API.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { OAuthConfig, TokenEndpointHandler, UserinfoEndpointHandler } from '../../src/core/types.js'
import { oauthProviders } from './all.js'

interface Seen {
  url: string
  method: string
  headers: Headers
  body: string
}

/** Installs a fake fetch answering by `METHOD url-without-query`; returns the requests seen. */
function fakeFetch(routes: Record<string, (req: Seen) => { status?: number; json: unknown }>): Seen[] {
  const seen: Seen[] = []
  vi.stubGlobal('fetch', async (input: string | URL, init: RequestInit = {}) => {
    const url = String(input)
    const req: Seen = {
      url,
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: init.body === undefined ? '' : String(init.body),
    }
    seen.push(req)
    const key = `${req.method} ${url.split('?')[0]}`
    const route = routes[key]
    if (!route) return new Response('no route ' + key, { status: 404 })
    const { status = 200, json } = route(req)
    return new Response(JSON.stringify(json), { status, headers: { 'Content-Type': 'application/json' } })
  })
  return seen
}

afterEach(() => {
  vi.unstubAllGlobals()
})

function userinfoOf(config: OAuthConfig<any>) {
  return (config.userinfo as UserinfoEndpointHandler).request!({ tokens: { access_token: 'AT' }, provider: config } as any)
}

const tokens = { access_token: 'AT' }

describe('userinfo requests', () => {
  it('github asks /user/emails for the primary verified address when the public email is unset', async () => {
    const seen = fakeFetch({
      'GET https://api.github.com/user': () => ({ json: { id: 1, login: 'octocat', email: null, avatar_url: 'a', name: null } }),
      'GET https://api.github.com/user/emails': () => ({
        json: [
          { email: 'old@example.com', primary: false, verified: true, visibility: null },
          { email: 'octocat@github.com', primary: true, verified: true, visibility: 'private' },
        ],
      }),
    })
    const config = oauthProviders.github({ clientId: 'c' })
    const profile = await (config.userinfo as UserinfoEndpointHandler).request!({ tokens, provider: config })
    expect(profile.email).toBe('octocat@github.com')
    expect(seen.map((r) => r.url)).toEqual(['https://api.github.com/user', 'https://api.github.com/user/emails'])
    for (const r of seen) {
      expect(r.headers.get('authorization')).toBe('Bearer AT')
      expect(r.headers.get('user-agent')).toBeTruthy()
    }
  })

  it('github makes one request when the public email is there', async () => {
    const seen = fakeFetch({
      'GET https://api.github.com/user': () => ({ json: { id: 1, login: 'octocat', email: 'pub@example.com' } }),
    })
    const profile = await userinfoOf(oauthProviders.github({}))
    expect(profile.email).toBe('pub@example.com')
    expect(seen).toHaveLength(1)
  })

  it('github uses a userinfo URL the app gave instead of the default (GitHub Enterprise behind a proxy, say)', async () => {
    const seen = fakeFetch({
      'GET https://proxy.test/gh/user': () => ({ json: { id: 1, login: 'octocat', email: null } }),
      'GET https://proxy.test/gh/user/emails': () => ({ json: [{ email: 'o@x.y', primary: true, verified: true, visibility: null }] }),
    })
    const config = oauthProviders.github({ userinfo: 'https://proxy.test/gh/user' })
    expect((await userinfoOf(config)).email).toBe('o@x.y')
    expect(seen.map((r) => r.url)).toEqual(['https://proxy.test/gh/user', 'https://proxy.test/gh/user/emails'])
  })

  it('a failing API answer names the provider and the HTTP status', async () => {
    fakeFetch({ 'GET https://api.github.com/user': () => ({ status: 401, json: { message: 'Bad credentials' } }) })
    await expect(userinfoOf(oauthProviders.github({}))).rejects.toThrow(/GitHub.*HTTP 401/)
  })

  it('bitbucket adds the primary confirmed email', async () => {
    fakeFetch({
      'GET https://api.bitbucket.org/2.0/user': () => ({ json: { uuid: '{u}', display_name: 'T', links: { avatar: { href: 'x' } } } }),
      'GET https://api.bitbucket.org/2.0/user/emails': () => ({
        json: { values: [{ email: 'a@b.c', is_primary: true, is_confirmed: true }, { email: 'z@b.c', is_primary: false, is_confirmed: true }] },
      }),
    })
    expect((await userinfoOf(oauthProviders.bitbucket({}))).email).toBe('a@b.c')
  })

  it('dropbox POSTs to get_current_account', async () => {
    const seen = fakeFetch({ 'POST https://api.dropboxapi.com/2/users/get_current_account': () => ({ json: { account_id: 'dbid:1' } }) })
    expect(await userinfoOf(oauthProviders.dropbox({}))).toEqual({ account_id: 'dbid:1' })
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer AT')
  })

  it('facebook asks for the fields id,name,email,picture', async () => {
    const seen = fakeFetch({ 'GET https://graph.facebook.com/me': () => ({ json: { id: '1', name: 'M' } }) })
    await userinfoOf(oauthProviders.facebook({}))
    expect(new URL(seen[0]!.url).searchParams.get('fields')).toBe('id,name,email,picture')
  })

  it('foursquare passes oauth_token and the version date, and returns response.user', async () => {
    const seen = fakeFetch({
      'GET https://api.foursquare.com/v2/users/self': () => ({ json: { meta: { code: 200 }, response: { user: { id: '7', firstName: 'F' } } } }),
    })
    expect(await userinfoOf(oauthProviders.foursquare({ apiVersion: '20240101' }))).toEqual({ id: '7', firstName: 'F' })
    const query = new URL(seen[0]!.url).searchParams
    expect(query.get('oauth_token')).toBe('AT')
    expect(query.get('v')).toBe('20240101')
  })

  it('hubspot reads the metadata of its own access token', async () => {
    const seen = fakeFetch({ 'GET https://api.hubapi.com/oauth/v1/access-tokens/AT': () => ({ json: { user: 'u@h.com', user_id: 5 } }) })
    expect(await userinfoOf(oauthProviders.hubspot({}))).toEqual({ user: 'u@h.com', user_id: 5 })
    expect(seen).toHaveLength(1)
  })

  it('mailchimp, yandex and zoho use their own authorization schemes', async () => {
    const seen = fakeFetch({
      'GET https://login.mailchimp.com/oauth2/metadata': () => ({ json: { dc: 'us1' } }),
      'GET https://login.yandex.ru/info': () => ({ json: { id: '1' } }),
      'GET https://accounts.zoho.com/oauth/user/info': () => ({ json: { ZUID: 1 } }),
    })
    await userinfoOf(oauthProviders.mailchimp({}))
    await userinfoOf(oauthProviders.yandex({}))
    await userinfoOf(oauthProviders.zoho({}))
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual(['OAuth AT', 'OAuth AT', 'Zoho-oauthtoken AT'])
  })

  it('mailru passes the token in the query', async () => {
    const seen = fakeFetch({ 'GET https://oauth.mail.ru/userinfo': () => ({ json: { id: '1' } }) })
    await userinfoOf(oauthProviders.mailru({}))
    expect(new URL(seen[0]!.url).searchParams.get('access_token')).toBe('AT')
  })

  it('nextcloud sends OCS-APIRequest and returns ocs.data', async () => {
    const seen = fakeFetch({
      'GET https://cloud.example.com/ocs/v2.php/cloud/user': () => ({ json: { ocs: { meta: { status: 'ok' }, data: { id: 'frank' } } } }),
    })
    expect(await userinfoOf(oauthProviders.nextcloud({ issuer: 'https://cloud.example.com' }))).toEqual({ id: 'frank' })
    expect(seen[0]!.headers.get('ocs-apirequest')).toBe('true')
    expect(new URL(seen[0]!.url).searchParams.get('format')).toBe('json')
  })

  it('notion fetches the owner user of the token with a Notion-Version', async () => {
    const owner = { object: 'user', id: 'u1', type: 'person', name: 'A', avatar_url: null, person: {} }
    const seen = fakeFetch({
      'GET https://api.notion.com/v1/users/u1': () => ({ json: { ...owner, person: { email: 'a@n.so' } } }),
    })
    const config = oauthProviders.notion({})
    const profile = await (config.userinfo as UserinfoEndpointHandler).request!({
      tokens: { access_token: 'AT', owner: { type: 'user', user: owner } },
      provider: config,
    })
    expect(profile).toMatchObject({ id: 'u1', person: { email: 'a@n.so' } })
    expect(seen[0]!.headers.get('notion-version')).toBe('2022-06-28')
  })

  it('trakt sends its API version and key headers', async () => {
    const seen = fakeFetch({ 'GET https://api.trakt.tv/users/me': () => ({ json: { username: 'sean', ids: { slug: 'sean' } } }) })
    await userinfoOf(oauthProviders.trakt({ clientId: 'trakt-client' }))
    expect(seen[0]!.headers.get('trakt-api-version')).toBe('2')
    expect(seen[0]!.headers.get('trakt-api-key')).toBe('trakt-client')
  })

  it('reddit sends a descriptive User-Agent', async () => {
    const seen = fakeFetch({ 'GET https://oauth.reddit.com/api/v1/me': () => ({ json: { id: 'abc', name: 'spez' } }) })
    await userinfoOf(oauthProviders.reddit({}))
    expect(seen[0]!.headers.get('user-agent')).toMatch(/latchkey/)
  })

  it('bungie sends the X-API-Key and returns bungieNetUser', async () => {
    const seen = fakeFetch({
      'GET https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/': () => ({
        json: { Response: { destinyMemberships: [], bungieNetUser: { membershipId: '9', displayName: 'G' } }, ErrorCode: 1 },
      }),
    })
    expect(await userinfoOf(oauthProviders.bungie({ apiKey: 'KEY' }))).toEqual({ membershipId: '9', displayName: 'G' })
    expect(seen[0]!.headers.get('x-api-key')).toBe('KEY')
  })

  it('vk returns the first users.get entry with the email of the token response', async () => {
    fakeFetch({ 'GET https://api.vk.com/method/users.get': () => ({ json: { response: [{ id: 1, first_name: 'L', last_name: 'S' }] } }) })
    const config = oauthProviders.vk({})
    const profile = await (config.userinfo as UserinfoEndpointHandler).request!({ tokens: { access_token: 'AT', email: 'l@vk.com' }, provider: config })
    expect(profile).toEqual({ id: 1, first_name: 'L', last_name: 'S', email: 'l@vk.com' })
  })

  it('workos takes the profile from the token response', async () => {
    const config = oauthProviders.workos({})
    const profile = await (config.userinfo as UserinfoEndpointHandler).request!({
      tokens: { access_token: 'AT', profile: { id: 'prof_1', email: 'w@o.s' } },
      provider: config,
    })
    expect(profile).toEqual({ id: 'prof_1', email: 'w@o.s' })
  })
})

describe('token requests', () => {
  it('tiktok exchanges the code with client_key', async () => {
    const seen = fakeFetch({ 'POST https://open.tiktokapis.com/v2/oauth/token/': () => ({ json: { access_token: 'act.1', open_id: 'o1', token_type: 'Bearer' } }) })
    const config = oauthProviders.tiktok({ clientId: 'awkey', clientSecret: 'sec' })
    const { tokens: got } = await (config.token as TokenEndpointHandler).request!({ checks: {}, params: { code: 'CODE' }, provider: config, redirectUri: 'https://app.test/auth/callback/tiktok' })
    expect(got.access_token).toBe('act.1')
    const body = new URLSearchParams(seen[0]!.body)
    expect(Object.fromEntries(body)).toEqual({
      client_key: 'awkey',
      client_secret: 'sec',
      code: 'CODE',
      grant_type: 'authorization_code',
      redirect_uri: 'https://app.test/auth/callback/tiktok',
    })
  })

  it('notion exchanges the code with a JSON body and HTTP Basic', async () => {
    const seen = fakeFetch({ 'POST https://api.notion.com/v1/oauth/token': () => ({ json: { access_token: 'secret_x', bot_id: 'b1', owner: { type: 'user' } } }) })
    const config = oauthProviders.notion({ clientId: 'nid', clientSecret: 'nsec' })
    const { tokens: got } = await (config.token as TokenEndpointHandler).request!({ checks: {}, params: { code: 'C' }, provider: config, redirectUri: 'https://app.test/cb' })
    expect(got.access_token).toBe('secret_x')
    expect(seen[0]!.headers.get('authorization')).toBe(`Basic ${Buffer.from('nid:nsec').toString('base64')}`)
    expect(seen[0]!.headers.get('content-type')).toBe('application/json')
    expect(JSON.parse(seen[0]!.body)).toEqual({ grant_type: 'authorization_code', code: 'C', redirect_uri: 'https://app.test/cb' })
  })

  it('wechat exchanges the code with a GET carrying appid and secret, then reads userinfo by openid', async () => {
    const seen = fakeFetch({
      'GET https://api.weixin.qq.com/sns/oauth2/access_token': () => ({ json: { access_token: 'WX', openid: 'OPENID', expires_in: 7200 } }),
      'GET https://api.weixin.qq.com/sns/userinfo': () => ({ json: { openid: 'OPENID', nickname: 'N' } }),
    })
    const config = oauthProviders.wechat({ clientId: 'wxid', clientSecret: 'wxsecret' })
    const { tokens: got } = await (config.token as TokenEndpointHandler).request!({ checks: {}, params: { code: 'C' }, provider: config, redirectUri: 'https://app.test/cb' })
    expect(Object.fromEntries(new URL(seen[0]!.url).searchParams)).toEqual({ appid: 'wxid', secret: 'wxsecret', code: 'C', grant_type: 'authorization_code' })
    const profile = await (config.userinfo as UserinfoEndpointHandler).request!({ tokens: got, provider: config })
    expect(profile).toEqual({ openid: 'OPENID', nickname: 'N' })
    expect(new URL(seen[1]!.url).searchParams.get('openid')).toBe('OPENID')
  })

  it('wechat turns an errcode answer into an error', async () => {
    fakeFetch({ 'GET https://api.weixin.qq.com/sns/oauth2/access_token': () => ({ json: { errcode: 40029, errmsg: 'invalid code' } }) })
    const config = oauthProviders.wechat({ clientId: 'wxid', clientSecret: 'wxsecret' })
    await expect((config.token as TokenEndpointHandler).request!({ checks: {}, params: { code: 'C' }, provider: config, redirectUri: 'https://app.test/cb' })).rejects.toThrow(
      /WeChat: error 40029/,
    )
  })

  it('azure-devops exchanges the code as a JWT bearer assertion', async () => {
    const seen = fakeFetch({ 'POST https://app.vssps.visualstudio.com/oauth2/token': () => ({ json: { access_token: 'AZ', token_type: 'jwt-bearer' } }) })
    const config = oauthProviders['azure-devops']({ clientId: 'app', clientSecret: 'client.secret.jwt' })
    await (config.token as TokenEndpointHandler).request!({ checks: {}, params: { code: 'CODE' }, provider: config, redirectUri: 'https://app.test/cb' })
    expect(Object.fromEntries(new URLSearchParams(seen[0]!.body))).toEqual({
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: 'client.secret.jwt',
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: 'CODE',
      redirect_uri: 'https://app.test/cb',
    })
  })
})
