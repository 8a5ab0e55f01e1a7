import { describe, expect, it } from 'vitest'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

/** Everything the store holds, to prove a rejected request changed nothing. */
async function snapshot(adapter: ReturnType<typeof testServer>['adapter']) {
  return JSON.stringify([await adapter.getUserByEmail('ada@example.com'), await adapter.getUser('user-ada')])
}

describe('bad input answers 4xx or the error page, with a clear message, and changes nothing', () => {
  const cases: Array<[string, (jar: Jar, csrf: string) => Promise<Response>, number, RegExp]> = [
    ['unknown action', (j) => j.get('/auth/nope'), 404, /Unknown action/],
    ['extra path segments', (j) => j.get('/auth/session/extra'), 404, /Unknown action/],
    ['outside basePath', (j) => j.get('/elsewhere'), 404, /under \/auth/],
    ['wrong method on session', (j) => j.request('/auth/session', { method: 'DELETE' }), 405, /takes GET, POST/],
    ['wrong method on providers', (j) => j.postForm('/auth/providers', {}), 405, /takes GET/],
    ['unknown provider', (j, csrf) => j.postForm('/auth/signin/nope', { csrfToken: csrf }, { 'x-auth-return-redirect': '1' }), 404, /UnknownProvider/],
    ['unknown provider (form)', (j, csrf) => j.postForm('/auth/signin/nope', { csrfToken: csrf }), 302, /error=UnknownProvider/],
    ['no CSRF token', (j) => j.postForm('/auth/callback/credentials', { username: 'ada', password: 'lovelace' }, { 'x-auth-return-redirect': '1' }), 403, /MissingCSRF/],
    ['forged CSRF token', (j) => j.postForm('/auth/callback/credentials', { csrfToken: 'forged', username: 'ada', password: 'lovelace' }, { 'x-auth-return-redirect': '1' }), 403, /MissingCSRF/],
    ['malformed JSON', (j) => j.request('/auth/session', { method: 'POST', body: '{"csrfToken":', headers: { 'content-type': 'application/json' } }), 400, /malformed JSON/],
    ['JSON that is not an object', (j) => j.request('/auth/session', { method: 'POST', body: '[1,2]', headers: { 'content-type': 'application/json' } }), 400, /got an array/],
    ['an unsupported body type', (j) => j.request('/auth/signout', { method: 'POST', body: 'x', headers: { 'content-type': 'text/xml' } }), 415, /Expected a body/],
    ['an oversized body', (j, csrf) => j.postForm('/auth/callback/credentials', { csrfToken: csrf, username: 'a'.repeat(70_000) }), 413, /larger than/],
    ['a field of the wrong type', (j, csrf) => j.postJson('/auth/signin/email', { csrfToken: csrf, email: ['a@b.c'] }, { 'x-auth-return-redirect': '1' }), 400, /email\\?" to be a string/],
    ['credentials by GET', (j) => j.get('/auth/callback/credentials?username=ada&password=lovelace'), 302, /error=UnknownAction/],
    ['an email callback without a token', (j) => j.get('/auth/callback/email?email=a@b.c'), 302, /error=Verification/],
    ['a webauthn action on signin', (j, csrf) => j.postForm('/auth/signin/credentials', { csrfToken: 'x' + csrf }), 302, /error=MissingCSRF/],
  ]
  for (const [name, send, status, pattern] of cases) {
    it(name, async () => {
      const { handler, adapter, outbox } = testServer()
      const jar = new Jar(handler)
      const csrf = await jar.csrf()
      const before = await snapshot(adapter)
      const res = await send(jar, csrf)
      expect(res.status).toBe(status)
      const text = res.headers.get('location') ?? (await res.text())
      expect(text).toMatch(pattern)
      expect(text).not.toMatch(/at .*\.ts:\d+/) // no stack trace
      expect(jar.cookies.has('latchkey.session-token')).toBe(false)
      expect(await snapshot(adapter)).toBe(before)
      expect(outbox).toHaveLength(0)
    })
  }

  it('a stale CSRF cookie from another secret is refused', async () => {
    const a = testServer()
    const jar = new Jar(a.handler)
    const csrfToken = await jar.csrf()
    const { Latchkey } = await import('../../src/server/index.js')
    const other = Latchkey({ secret: 'another-secret-entirely-0123456789', providers: [], now: () => a.clock.now })
    const res = await new Jar(other).request('/auth/signout', {
      method: 'POST',
      body: new URLSearchParams({ csrfToken }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `latchkey.csrf-token=${encodeURIComponent(jar.cookies.get('latchkey.csrf-token')!)}` },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toMatch(/error=MissingCSRF/)
  })

  it('a tampered session cookie reads as no session and is cleared (jwt)', async () => {
    const { handler } = testServer({ strategy: 'jwt' })
    const jar = new Jar(handler)
    await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
    const token = jar.cookies.get('latchkey.session-token')!
    jar.cookies.set('latchkey.session-token', token.slice(0, -4) + 'AAAA')
    expect(await jar.session()).toBeNull()
    expect(jar.cookies.has('latchkey.session-token')).toBe(false)
  })
})
