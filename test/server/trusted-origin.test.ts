/**
 * The Host hole: no absolute URL is built from a Host (or X-Forwarded-Host) the configuration
 * does not trust. Sent as an attacker sends it: raw HTTP over a socket to the node binding (fetch
 * cannot forge Host), and as a Web Request whose URL carries the forged host (what fetch-style
 * runtimes build from Host).
 */
import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter, AuthConfig, SendVerificationRequestParams } from '../../src/core/types.js'
import Email from '../../src/providers/email.js'
import Passkey from '../../src/providers/passkey.js'
import { Latchkey } from '../../src/server/index.js'
import { toNodeHandler } from '../../src/node/index.js'
import { isLoopback, resolveOriginRule } from '../../src/server/kernel/public-origin.js'
import { testSecret } from '../support/server.js'

interface RawResponse {
  status: number
  headers: Map<string, string[]>
  body: string
}

/** One request written byte for byte to the socket; the answer parsed by hand. */
function raw(port: number, method: string, path: string, headers: Record<string, string>, body = ''): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (c) => chunks.push(c))
    socket.on('error', reject)
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head, ...rest] = text.split('\r\n\r\n')
      const lines = head.split('\r\n')
      const map = new Map<string, string[]>()
      for (const line of lines.slice(1)) {
        const at = line.indexOf(':')
        const name = line.slice(0, at).toLowerCase()
        map.set(name, [...(map.get(name) ?? []), line.slice(at + 1).trim()])
      }
      resolve({ status: Number(lines[0].split(' ')[1]), headers: map, body: rest.join('\r\n\r\n') })
    })
    const all = { ...headers, connection: 'close', ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }
    socket.write(`${method} ${path} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${body}`)
  })
}

/** `name=value; …` of the Set-Cookie headers, to send back. */
function cookiesOf(res: RawResponse): string {
  return (res.headers.get('set-cookie') ?? []).map((c) => c.split(';')[0]).join('; ')
}

interface App {
  port: number
  outbox: SendVerificationRequestParams[]
  adapter: Adapter
  writes: string[]
  logs: string[]
}

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))))
  vi.unstubAllEnvs()
})

/** A server "configured as the README shows", with an adapter that records every write. */
async function start(config: Partial<AuthConfig> = {}): Promise<App> {
  const outbox: SendVerificationRequestParams[] = []
  const writes: string[] = []
  const logs: string[] = []
  const memory = MemoryAdapter()
  const adapter = new Proxy(memory, {
    get(target, name: string) {
      const value = (target as any)[name]
      if (typeof value !== 'function' || name.startsWith('get') || name.startsWith('list')) return value
      return (...args: unknown[]) => (writes.push(name), value.apply(target, args))
    },
  })
  const handler = Latchkey({
    secret: testSecret,
    adapter,
    logger: { error: (e) => logs.push(e.message), warn: (m) => logs.push(m), debug: () => {} },
    providers: [
      Email({ sendVerificationRequest: (p) => void outbox.push(p) }),
      { id: 'acme', name: 'Acme', type: 'oauth', clientId: 'client', jwks_endpoint: undefined, authorization: 'https://idp.invalid/authorize', token: 'https://idp.invalid/token' },
      Passkey(),
    ],
    ...config,
  })
  const server = createServer(toNodeHandler(handler))
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { port: (server.address() as AddressInfo).port, outbox, adapter, writes, logs }
}

/** GET /csrf then POST /signin/email for the victim, both under `host` (and any extra headers). */
async function emailSignIn(app: App, host: string, extra: Record<string, string> = {}, csrfHost = host): Promise<RawResponse> {
  const csrf = await raw(app.port, 'GET', '/auth/csrf', { host: csrfHost, ...extra })
  const token = csrf.status === 200 ? (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken : 'none'
  const form = new URLSearchParams({ csrfToken: token, email: 'victim@example.com', callbackUrl: '/' }).toString()
  return raw(app.port, 'POST', '/auth/signin/email', {
    host,
    ...extra,
    cookie: cookiesOf(csrf),
    'content-type': 'application/x-www-form-urlencoded',
  }, form)
}

function expectRefused(res: RawResponse): void {
  expect(res.status).toBe(400)
  expect(JSON.parse(res.body)).toMatchObject({ error: 'UntrustedHost' })
  expect(res.body).not.toContain('evil')
  expect(res.headers.get('set-cookie')).toBeUndefined()
}

describe('without `origin`, only loopback hosts are answered', () => {
  it('a poisoned-Host email sign-in is refused: no mail is sent, nothing is stored', async () => {
    const app = await start()
    expectRefused(await raw(app.port, 'GET', '/auth/csrf', { host: 'evil.example' }))
    // Even with a CSRF token fetched under a loopback Host, the sign-in under the forged one is refused.
    const res = await emailSignIn(app, 'evil.example', {}, `127.0.0.1:${app.port}`)
    expectRefused(res)
    expect(app.outbox).toHaveLength(0)
    expect(app.writes).toEqual([])
  })

  it('X-Forwarded-Host is never read: the link is built on the loopback Host', async () => {
    const app = await start()
    const res = await emailSignIn(app, `localhost:${app.port}`, { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' })
    expect(res.status).toBe(302)
    expect(app.outbox).toHaveLength(1)
    expect(app.outbox[0].url.startsWith(`http://localhost:${app.port}/auth/callback/email?`)).toBe(true)
  })

  it('OAuth sign-in start and passkey options under a forged Host are refused', async () => {
    const app = await start()
    const csrf = await raw(app.port, 'GET', '/auth/csrf', { host: `127.0.0.1:${app.port}` })
    const token = (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken
    const form = new URLSearchParams({ csrfToken: token, callbackUrl: '/' }).toString()
    expectRefused(await raw(app.port, 'POST', '/auth/signin/acme', { host: 'evil.example', cookie: cookiesOf(csrf), 'content-type': 'application/x-www-form-urlencoded' }, form))
    expectRefused(await raw(app.port, 'GET', '/auth/webauthn-options/passkey?action=register&email=victim%40example.com', { host: 'evil.example' }))
    expectRefused(await raw(app.port, 'GET', '/auth/webauthn-options/passkey?action=authenticate', { host: 'evil.example' }))
    expect(app.writes).toEqual([])
  })

  it('the built-in pages and the provider list are refused too: they carry absolute URLs', async () => {
    const app = await start()
    expectRefused(await raw(app.port, 'GET', '/auth/providers', { host: 'evil.example' }))
    expectRefused(await raw(app.port, 'GET', '/auth/signin', { host: 'evil.example' }))
    // Near-loopback names are not loopback.
    expectRefused(await raw(app.port, 'GET', '/auth/csrf', { host: 'localhost.evil.example' }))
    expectRefused(await raw(app.port, 'GET', '/auth/csrf', { host: '127.0.0.1.evil.example' }))
  })
})

describe('with `origin`, every URL is built on it', () => {
  const origin = 'https://app.example.com'

  it('a Host that is not the origin is refused; the origin\'s own Host and a loopback proxy are answered', async () => {
    const app = await start({ origin })
    const refused = await emailSignIn(app, 'evil.example')
    expectRefused(refused)
    expect(app.outbox).toHaveLength(0)

    const direct = await emailSignIn(app, 'app.example.com')
    expect(direct.status).toBe(302)
    // A proxy on the same machine that does not pass Host on, with a forged X-Forwarded-Host.
    const proxied = await emailSignIn(app, `127.0.0.1:${app.port}`, { 'x-forwarded-host': 'evil.example' })
    expect(proxied.status).toBe(302)
    expect(app.outbox.map((m) => new URL(m.url).origin)).toEqual([origin, origin])
  })

  it('OAuth redirect_uri and the passkey relying party come from the origin under a forged X-Forwarded-Host', async () => {
    const app = await start({ origin })
    const headers = { host: `127.0.0.1:${app.port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' }
    const csrf = await raw(app.port, 'GET', '/auth/csrf', headers)
    const token = (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken
    const form = new URLSearchParams({ csrfToken: token, callbackUrl: '/' }).toString()
    const res = await raw(app.port, 'POST', '/auth/signin/acme', { ...headers, cookie: cookiesOf(csrf), 'content-type': 'application/x-www-form-urlencoded' }, form)
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('location')![0])
    expect(location.searchParams.get('redirect_uri')).toBe(`${origin}/auth/callback/acme`)

    const options = await raw(app.port, 'GET', '/auth/webauthn-options/passkey?action=register&email=someone%40example.com', headers)
    expect(options.status).toBe(200)
    expect(JSON.parse(options.body).options.rp).toMatchObject({ id: 'app.example.com' })
  })

  it('callbackUrl to the forged host is not followed', async () => {
    const app = await start({ origin })
    const headers = { host: `127.0.0.1:${app.port}`, 'x-forwarded-host': 'evil.example' }
    const csrf = await raw(app.port, 'GET', '/auth/csrf', headers)
    const token = (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken
    const form = new URLSearchParams({ csrfToken: token, callbackUrl: 'https://evil.example/steal' }).toString()
    const out = await raw(app.port, 'POST', '/auth/signout', { ...headers, cookie: cookiesOf(csrf), 'content-type': 'application/x-www-form-urlencoded' }, form)
    expect(out.status).toBe(302)
    expect(out.headers.get('location')![0]).toBe(origin)
  })

  it('several origins: the Host picks its own', async () => {
    const app = await start({ origin: ['https://app.example.com', 'https://www.example.com'] })
    await emailSignIn(app, 'www.example.com')
    await emailSignIn(app, `localhost:${app.port}`)
    expect(app.outbox.map((m) => new URL(m.url).origin)).toEqual(['https://www.example.com', 'https://app.example.com'])
    expectRefused(await emailSignIn(app, 'example.com'))
  })

  it('AUTH_URL stands for `origin`', async () => {
    vi.stubEnv('AUTH_URL', 'https://env.example.com/api/auth')
    const app = await start()
    expectRefused(await emailSignIn(app, 'evil.example'))
    await emailSignIn(app, 'env.example.com')
    expect(app.outbox.map((m) => new URL(m.url).origin)).toEqual(['https://env.example.com'])
  })
})

describe('the Web handler reads the host from the Request URL the runtime built from Host', () => {
  it('a forged host is refused; a loopback one with X-Forwarded-Host is answered on itself', async () => {
    const outbox: SendVerificationRequestParams[] = []
    const handler = Latchkey({ secret: testSecret, adapter: MemoryAdapter(), providers: [Email({ sendVerificationRequest: (p) => void outbox.push(p) })] })
    const refused = await handler(new Request('http://evil.example/auth/csrf'))
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: 'UntrustedHost' })
    const csrf = await handler(new Request('http://localhost:8080/auth/csrf', { headers: { 'x-forwarded-host': 'evil.example' } }))
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const cookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
    const body = new URLSearchParams({ csrfToken, email: 'victim@example.com' })
    const forged = await handler(new Request('http://evil.example/auth/signin/email', { method: 'POST', body, headers: { cookie } }))
    expect(forged.status).toBe(400)
    expect(outbox).toHaveLength(0)
    const ok = await handler(new Request('http://localhost:8080/auth/signin/email', { method: 'POST', body, headers: { cookie, 'x-forwarded-host': 'evil.example' } }))
    expect(ok.status).toBe(302)
    expect(new URL(outbox[0].url).origin).toBe('http://localhost:8080')
  })
})

describe('trustHost, for platforms that set Host themselves', () => {
  it('takes X-Forwarded-Host and X-Forwarded-Proto, else Host', async () => {
    const app = await start({ trustHost: true })
    await emailSignIn(app, 'internal:3000', { 'x-forwarded-host': 'shop.example.com', 'x-forwarded-proto': 'https' })
    await emailSignIn(app, 'shop.example.org')
    expect(app.outbox.map((m) => new URL(m.url).origin)).toEqual(['https://shop.example.com', 'http://shop.example.org'])
  })

  it('refuses a forwarded value that is more than an origin', async () => {
    const app = await start({ trustHost: true })
    await emailSignIn(app, 'shop.example.org', { 'x-forwarded-host': 'a.example/path', 'x-forwarded-proto': 'javascript' })
    expect(app.outbox.map((m) => new URL(m.url).origin)).toEqual(['http://shop.example.org'])
  })
})

describe('start-up', () => {
  const env = (values: Record<string, string>) => ({ NODE_ENV: 'production', ...values })

  it('a production start without a trusted origin is a clear error', () => {
    expect(() => resolveOriginRule({}, env({}))).toThrow(/Set `origin` \(or AUTH_URL\)/)
    expect(() => Latchkey({ secret: testSecret, providers: [] })).not.toThrow()
    vi.stubEnv('NODE_ENV', 'production')
    expect(() => Latchkey({ secret: testSecret, providers: [] })).toThrow(/AUTH_URL/)
  })

  it('origin, AUTH_URL, trustHost or AUTH_TRUST_HOST each allow it', () => {
    expect(resolveOriginRule({ origin: 'https://a.example' }, env({})).first).toBe('https://a.example')
    expect(resolveOriginRule({}, env({ AUTH_URL: 'https://b.example/auth' })).first).toBe('https://b.example')
    expect(resolveOriginRule({ trustHost: true }, env({})).trustHost).toBe(true)
    expect(resolveOriginRule({}, env({ AUTH_TRUST_HOST: 'true' })).trustHost).toBe(true)
    expect(resolveOriginRule({ trustHost: false }, env({ AUTH_TRUST_HOST: 'true', AUTH_URL: 'https://b.example' })).trustHost).toBe(false)
  })

  it('an origin that is not an http(s) URL is refused at start', () => {
    expect(() => resolveOriginRule({ origin: 'app.example.com' }, {})).toThrow(/absolute http\(s\) URL/)
    expect(() => resolveOriginRule({ origin: 'ftp://app.example.com' }, {})).toThrow(/http\(s\) URL/)
  })

  it('loopback means localhost, *.localhost, 127/8 and [::1] only', () => {
    for (const host of ['localhost', 'localhost:3000', 'a.localhost', '127.0.0.1:80', '127.1.2.3', '[::1]:8080']) expect(isLoopback(host)).toBe(true)
    for (const host of ['evil.example', 'localhost.evil', '127.0.0.1.nip.io', '128.0.0.1', '[::2]', '0.0.0.0', '']) expect(isLoopback(host)).toBe(false)
  })
})
