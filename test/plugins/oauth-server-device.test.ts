/**
 * The device authorization grant (RFC 8628) of the authorization server, driven by oauth4webapi:
 * the device asks for codes, the user types the code on the device page (signed in, CSRF-checked)
 * and answers the consent screen, the device polls: authorization_pending, slow_down with the
 * interval raised, access_denied, expired_token, the tokens once. And the attacks: guessing
 * codes is rate-limited, forged or malformed posts change nothing and answer 4xx.
 */
import * as oauth from 'oauth4webapi'
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { browser, mcp, origin, secret, type AuthServer } from './oauth-server-support.js'
import { answerOnPage, deviceGrantType, deviceServer, hidden, poll, pollResult, startDevice, tv } from './oauth-server-device-support.js'

describe('the device authorization grant', () => {
  it('is in the metadata', async () => {
    const as = await deviceServer().as()
    expect(as.device_authorization_endpoint).toBe(`${origin}/auth/oauth2/device_authorization`)
    expect(as.grant_types_supported).toContain(deviceGrantType)
  })

  it('codes: a high-entropy device code, an 8-letter user code XXXX-XXXX, verification_uri and its complete form, expires_in and interval', async () => {
    const server = deviceServer()
    const started = await startDevice(server, await server.as())
    expect(started.device_code.length).toBeGreaterThanOrEqual(43)
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/)
    expect(started.verification_uri).toBe(`${origin}/auth/oauth2/device`)
    expect(started.verification_uri_complete).toBe(`${origin}/auth/oauth2/device?user_code=${started.user_code}`)
    expect(started).toMatchObject({ expires_in: 600, interval: 5 })
  })

  it('pending until the user allows on the page (the code typed in lower case without its dash), then the tokens, once', async () => {
    const server = deviceServer()
    const as = await server.as()
    const started = await startDevice(server, as)
    expect(await pollResult(server, as, started.device_code)).toBe('authorization_pending')
    const jar = await browser(server)
    const { consentPage, answeredPage } = await answerOnPage(jar, started.user_code.replace('-', '').toLowerCase())
    // The consent screen names the client and shows the code to compare; it always asks.
    expect(consentPage).toContain('TV CLI')
    expect(consentPage).toContain(started.user_code)
    expect(consentPage).toContain('Read your tools')
    expect(answeredPage).toContain('Device connected')
    server.clock.now += 5000
    const tokens = await oauth.processDeviceCodeResponse(as, tv, await poll(server, as, started.device_code))
    expect(decodeJwt(tokens.access_token)).toMatchObject({ sub: 'user-ada', aud: mcp, client_id: 'tv', scope: 'tools:read' })
    expect(tokens.refresh_token).toBeTypeOf('string')
    expect(await server.plugin.verifyAccessToken(new Request(mcp, { headers: { authorization: `Bearer ${tokens.access_token}` } }), { resource: mcp })).toMatchObject({ sub: 'user-ada' })
    // The device code is spent: polled again, it gives nothing.
    server.clock.now += 5000
    expect(await pollResult(server, as, started.device_code)).toBe('invalid_grant')
    const refreshed = await oauth.processRefreshTokenResponse(as, tv, await oauth.refreshTokenGrantRequest(as, tv, oauth.None(), tokens.refresh_token!, server.options))
    expect(refreshed.access_token).toBeTypeOf('string')
  })

  it('slow_down when polled too soon: the interval grows by 5 s each time, and polling at the new interval is pending again', async () => {
    const server = deviceServer()
    const as = await server.as()
    const { device_code } = await startDevice(server, as)
    expect(await pollResult(server, as, device_code)).toBe('authorization_pending')
    server.clock.now += 1000
    const slow = await poll(server, as, device_code)
    expect(await slow.json()).toMatchObject({ error: 'slow_down', error_description: expect.stringContaining('10 seconds') })
    // 6 s later is past the first interval but not the raised one.
    server.clock.now += 6000
    expect(await pollResult(server, as, device_code)).toBe('slow_down')
    server.clock.now += 15_000
    expect(await pollResult(server, as, device_code)).toBe('authorization_pending')
  })

  it('access_denied once the user denies', async () => {
    const server = deviceServer()
    const as = await server.as()
    const started = await startDevice(server, as)
    const { answeredPage } = await answerOnPage(await browser(server), started.user_code, 'deny')
    expect(answeredPage).toContain('Request denied')
    expect(await pollResult(server, as, started.device_code)).toBe('access_denied')
  })

  it('expired_token after expires_in; the page no longer takes the code', async () => {
    const server = deviceServer({ deviceCodeTtl: 60 })
    const as = await server.as()
    const started = await startDevice(server, as)
    server.clock.now += 61_000
    expect(await pollResult(server, as, started.device_code)).toBe('expired_token')
    const jar = await browser(server)
    const form = await jar.get('/auth/oauth2/device')
    const typed = await jar.postForm('/auth/oauth2/device', { csrfToken: hidden(await form.text(), 'csrfToken')!, user_code: started.user_code })
    expect(typed.status).toBe(400)
    expect(await typed.text()).toContain('not valid or has expired')
  })

  it('a confidential client authenticates at both endpoints; a client without the grant is refused', async () => {
    const server = deviceServer()
    const as = await server.as()
    const box: oauth.Client = { client_id: 'box' }
    const auth = oauth.ClientSecretBasic(`${secret}-box`)
    const started = await oauth.processDeviceAuthorizationResponse(as, box, await oauth.deviceAuthorizationRequest(as, box, auth, { resource: mcp }, server.options))
    await answerOnPage(await browser(server, 'bo'), started.user_code)
    const tokens = await oauth.processDeviceCodeResponse(as, box, await oauth.deviceCodeGrantRequest(as, box, auth, started.device_code, server.options))
    expect(decodeJwt(tokens.access_token)).toMatchObject({ sub: 'user-bo', client_id: 'box' })
    expect(tokens.refresh_token).toBeUndefined()
    const cli: oauth.Client = { client_id: 'cli', token_endpoint_auth_method: 'none' }
    const refused = await oauth.deviceAuthorizationRequest(as, cli, oauth.None(), { resource: mcp }, server.options)
    expect(await refused.json()).toMatchObject({ error: 'unauthorized_client' })
  })
})

const post = (server: AuthServer, path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) => {
  const body = new URLSearchParams()
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one)
  return server.fetcher(`${origin}/auth/oauth2/${path}`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } })
}

describe('attacks on the device flow', () => {
  it('guessing user codes is rate-limited per account: wrong codes answer one 400 alike, then 429, even for the right code', async () => {
    const server = deviceServer({}, { rateLimit: {} })
    const as = await server.as()
    const started = await startDevice(server, as)
    const jar = await browser(server, 'bo')
    const csrfToken = hidden(await (await jar.get('/auth/oauth2/device')).text(), 'csrfToken')!
    const bodies = new Set<string>()
    for (let i = 0; i < 10; i++) {
      const guess = await jar.postForm('/auth/oauth2/device', { csrfToken, user_code: i % 2 ? `BCDF-GHJ${'BCDFGHJKLM'[i]}` : 'not a code' })
      expect(guess.status).toBe(400)
      bodies.add((await guess.text()).replace(/value="[^"]*"/g, ''))
    }
    // Mistyped and unknown codes get the same page.
    expect(bodies.size).toBe(1)
    const limited = await jar.postForm('/auth/oauth2/device', { csrfToken, user_code: started.user_code })
    expect(limited.status).toBe(429)
    expect(await pollResult(server, as, started.device_code)).toBe('authorization_pending')
  })

  it('the page’s posts need the CSRF token and a signed-in user; nothing changes without them', async () => {
    const server = deviceServer()
    const as = await server.as()
    const started = await startDevice(server, as)
    const jar = await browser(server)
    const forged = await jar.postForm('/auth/oauth2/device', { user_code: started.user_code, decision: 'allow' })
    expect(forged.status).toBeGreaterThanOrEqual(400)
    expect(forged.status).toBeLessThan(500)
    const wrongToken = await jar.postForm('/auth/oauth2/device', { csrfToken: 'x'.repeat(40), user_code: started.user_code, decision: 'allow' })
    expect(wrongToken.status).toBeGreaterThanOrEqual(400)
    expect(wrongToken.status).toBeLessThan(500)
    const stranger = await browser(server)
    stranger.cookies.clear()
    const csrf = await stranger.csrf()
    const signedOut = await stranger.postForm('/auth/oauth2/device', { csrfToken: csrf, user_code: started.user_code, decision: 'allow' })
    expect(signedOut.status).toBe(401)
    expect(await pollResult(server, as, started.device_code)).toBe('authorization_pending')
  })

  it('signed out, the page sends the browser to sign in and back with the code', async () => {
    const server = deviceServer()
    const started = await startDevice(server, await server.as())
    const response = await server.fetcher(started.verification_uri_complete!)
    expect(response.status).toBe(302)
    const to = new URL(response.headers.get('location')!)
    expect(new URL(to.searchParams.get('callbackUrl')!, origin).href).toBe(`${origin}/auth/oauth2/device?user_code=${started.user_code}`)
    const jar = await browser(server)
    const page = await (await jar.get(started.verification_uri_complete!)).text()
    expect(page).toContain(`value="${started.user_code}"`)
  })

  it('a code is answered once: a second decision is refused and does not change the first', async () => {
    const server = deviceServer()
    const as = await server.as()
    const started = await startDevice(server, as)
    const jar = await browser(server)
    const { consentPage } = await answerOnPage(jar, started.user_code, 'deny')
    const again = await jar.postForm('/auth/oauth2/device', { csrfToken: hidden(consentPage, 'csrfToken')!, user_code: started.user_code, decision: 'allow' })
    expect(again.status).toBe(400)
    expect(await pollResult(server, as, started.device_code)).toBe('access_denied')
  })

  it('malformed input: clear 4xx, never 500', async () => {
    const server = deviceServer()
    const as = await server.as()
    const started = await startDevice(server, as)
    const jar = await browser(server)
    const csrfToken = hidden(await (await jar.get('/auth/oauth2/device')).text(), 'csrfToken')!
    for (const fields of [{ csrfToken, user_code: ['A', 'B'] }, { csrfToken, user_code: 'x'.repeat(5000) }, { csrfToken, user_code: started.user_code, decision: 'maybe' }, { csrfToken }]) {
      const response = await jar.request('/auth/oauth2/device', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(Object.entries(fields).flatMap(([k, v]) => [v].flat().map((one) => [k, one]))),
      })
      expect(response.status, JSON.stringify(fields).slice(0, 80)).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
    }
    const cases: Array<[Record<string, string | string[]>, string, number]> = [
      [{ client_id: 'tv' }, 'invalid_target', 400],
      [{ client_id: 'tv', resource: 'https://evil.example' }, 'invalid_target', 400],
      [{ client_id: 'tv', resource: mcp, scope: 'admin' }, 'invalid_scope', 400],
      [{ client_id: 'nobody', resource: mcp }, 'invalid_client', 401],
    ]
    for (const [fields, error, status] of cases) {
      const response = await post(server, 'device_authorization', fields)
      expect(response.status, JSON.stringify(fields)).toBe(status)
      expect(await response.json()).toMatchObject({ error })
    }
    const token = async (fields: Record<string, string | string[]>) => (await post(server, 'token', { grant_type: deviceGrantType, ...fields })).json()
    expect(await token({ client_id: 'tv' })).toMatchObject({ error: 'invalid_request' })
    expect(await token({ client_id: 'tv', device_code: 'guess' })).toMatchObject({ error: 'invalid_grant' })
    // A list where one string belongs (a JSON body; a form's repeats are read as the last by the kernel).
    const listed = await server.fetcher(`${origin}/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: deviceGrantType, client_id: 'tv', device_code: [started.device_code] }) })
    expect(listed.status).toBe(400)
    expect(await listed.json()).toMatchObject({ error: 'invalid_request' })
    // Another client's device code is no good, and says nothing of whose it is.
    expect(await token({ client_id: 'box', client_secret: `${secret}-box`, device_code: started.device_code })).toMatchObject({ error: 'invalid_grant' })
    expect(await token({ client_id: 'cli', device_code: started.device_code })).toMatchObject({ error: 'unauthorized_client' })
    expect(await (await server.fetcher(`${origin}/auth/oauth2/device_authorization`)).json()).toMatchObject({ error: 'invalid_request' })
    expect(server.logs.filter((l) => l.startsWith('error'))).toEqual([])
  })
})
