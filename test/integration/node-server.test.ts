import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toNodeHandler } from '../../src/node/index.js'
import { Jar } from '../support/jar.js'
import { lastLink, testServer } from '../support/server.js'

describe('the node:http binding, over real HTTP with a cookie jar', () => {
  const app = testServer()
  let server: Server
  let origin: string
  const http = (request: Request) => fetch(request, { redirect: 'manual' })

  beforeAll(async () => {
    server = createServer(toNodeHandler(app.handler))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('lists providers as AppProvider records', async () => {
    const res = await new Jar(http, origin).get('/auth/providers')
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    expect(await res.json()).toEqual({
      credentials: { id: 'credentials', name: 'Credentials', type: 'credentials', signinUrl: `${origin}/auth/signin/credentials`, callbackUrl: `${origin}/auth/callback/credentials` },
      // latchkey's addition: the email provider's one-time code, so a form knows to offer its field.
      email: { id: 'email', name: 'Email', type: 'email', signinUrl: `${origin}/auth/signin/email`, callbackUrl: `${origin}/auth/callback/email`, code: { length: 6, numeric: true } },
    })
  })

  it('credentials: sign in, read, update, sign out', async () => {
    const jar = new Jar(http, origin)
    expect(await jar.session()).toBeNull()
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace', callbackUrl: '/after' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`${origin}/after`)
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('latchkey.session-token='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).toMatch(/Path=\//)
    expect(cookie).not.toMatch(/Secure/)
    const session = await jar.get('/auth/session')
    expect(session.headers.get('cache-control')).toBe('no-store')
    expect((await session.json()).user.name).toBe('Ada')
    const updated = await jar.postJson('/auth/session', { csrfToken: await jar.csrf(), data: { x: 1 } })
    expect((await updated.json()).user.name).toBe('Ada')
    await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() })
    expect(await jar.session()).toBeNull()
  })

  it('email: the link from the outbox signs in over HTTP', async () => {
    const jar = new Jar(http, origin)
    const res = await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'lin@example.com' })
    expect(res.headers.get('location')).toBe(`${origin}/auth/verify-request?provider=email&type=email`)
    expect(app.outbox.at(-1)!.url.startsWith(`${origin}/auth/callback/email?`)).toBe(true)
    await jar.get(lastLink(app.outbox))
    expect((await jar.session()).user.email).toBe('lin@example.com')
  })

  it('serves the HTML pages with a strict CSP', async () => {
    const jar = new Jar(http, origin)
    for (const path of ['/auth/signin', '/auth/signout', '/auth/verify-request', '/auth/error?error=Verification']) {
      const res = await jar.get(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/)
      expect(await res.text()).toMatch(/<!doctype html>/)
    }
    const signin = await (await jar.get('/auth/signin')).text()
    expect(signin).toContain('Sign in with Email')
    expect(signin).toContain('name="password" type="password"')
  })

  it('answers CORS preflights only for trusted origins', async () => {
    const res = await fetch(`${origin}/auth/session`, { method: 'OPTIONS', headers: { origin: 'https://evil.example.com' } })
    expect(res.status).toBe(403)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('the node binding and the request path', () => {
  it('never takes the host from a path that starts with //', async () => {
    const { toRequest } = await import('../../src/node/index.js')
    const request = toRequest({ url: '//evil.example/auth/session', headers: { host: 'app.example' }, method: 'GET', socket: {} } as any)
    expect(new URL(request.url).host).toBe('app.example')
    expect(new URL(request.url).pathname).toBe('//evil.example/auth/session')
  })
})

describe('the direct node path', () => {
  const app = testServer()
  let server: Server
  let origin: string
  beforeAll(async () => {
    server = createServer(toNodeHandler(app.handler))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('answers with a content-length that matches the body', async () => {
    const res = await fetch(`${origin}/auth/providers`)
    const body = Buffer.from(await res.arrayBuffer())
    expect(Number(res.headers.get('content-length'))).toBe(body.byteLength)
    expect(JSON.parse(body.toString()).credentials.id).toBe('credentials')
  })

  it('answers HEAD with the headers and no body', async () => {
    const res = await fetch(`${origin}/auth/csrf`, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    expect(await res.text()).toBe('')
  })

  it('refuses TRACE with a 400 and a clear body', async () => {
    const { request } = await import('node:http')
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${origin}/auth/session`, { method: 'TRACE' }, (res) => {
        let body = ''
        res.on('data', (c) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      })
      req.on('error', reject)
      req.end()
    })
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body).error).toBe('InvalidRequest')
  })

  it('a wrapped handler takes the Web path and gives the same answers', async () => {
    const wrapped = createServer(toNodeHandler((request) => app.handler(request)))
    await new Promise<void>((resolve) => wrapped.listen(0, '127.0.0.1', resolve))
    const other = `http://127.0.0.1:${(wrapped.address() as AddressInfo).port}`
    try {
      const jar = new Jar((r) => fetch(r, { redirect: 'manual' }), other)
      const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
      expect(res.status).toBe(302)
      expect((await jar.session()).user.email).toBe('ada@example.com')
      const direct = await (await fetch(`${origin}/auth/providers`)).json()
      const viaWeb = await (await fetch(`${other}/auth/providers`)).json()
      expect(JSON.stringify(viaWeb).replaceAll(other, origin)).toBe(JSON.stringify(direct))
    } finally {
      await new Promise<void>((resolve) => wrapped.close(() => resolve()))
    }
  })

  it('writes the same status, headers and cookies as the Web handler answers', async () => {
    // One reply, two ways out: straight to node's response, or through a Web Response.
    const routes: Array<[string, RequestInit]> = [
      ['/auth/csrf', {}],
      ['/auth/session', { headers: { cookie: 'latchkey.session-token=not-a-session' } }],
      ['/auth/nope', {}],
      ['/auth/session', { method: 'PUT' }],
      ['/auth/signout', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'csrfToken=wrong' }],
    ]
    const shape = async (res: Response) => ({
      status: res.status,
      headers: [...res.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'set-cookie'].includes(name)),
      cookies: res.headers.getSetCookie().map((c) => c.replace(/=[^;]*/, '=…')),
      body: (await res.text()).replaceAll(/"csrfToken":"[^"]+"/g, '"csrfToken":"…"'),
    })
    let checked = 0
    for (const [path, init] of routes) {
      const overNode = await shape(await fetch(`${origin}${path}`, { ...init, redirect: 'manual' }))
      const overWeb = await shape(await app.handler(new Request(`${origin}${path}`, init)))
      expect(overNode, `${init.method ?? 'GET'} ${path}`).toEqual(overWeb)
      checked += overNode.cookies.length
    }
    expect(checked).toBeGreaterThan(0)
  })
})
