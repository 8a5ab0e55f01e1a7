/**
 * Random and malformed requests against every route. Every answer must be 2xx, 3xx or 4xx with a
 * body that names no secret and shows no stack trace, nothing may reach the logs that holds a
 * secret, and no request without a valid CSRF token or sign-in proof may write to the store.
 * Seeded, so a failure names the case that reproduces it; bounded in count and time.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import OIDC from '../../src/providers/oidc.js'
import Passkey from '../../src/providers/passkey.js'
import { Latchkey } from '../../src/server/index.js'
import type { Adapter } from '../../src/core/types.js'

const secret = 'fuzz-secret-SHOULD-NEVER-LEAK-0123456789'
const cases = Number(process.env.FUZZ_CASES ?? 10_000)
const budgetMs = Number(process.env.FUZZ_MS ?? 25_000)

/** mulberry32: small, fast, good enough to pick cases. */
function random(seed: number) {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function generator(seed: number) {
  const r = random(seed)
  const int = (n: number) => Math.floor(r() * n)
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]
  const junk = (max: number) => {
    const alphabet = ['a', 'Z', '0', '%', '%00', '%ff', '/', '\\', '..', '"', "'", '<', '>', '&', '=', ';', ',', ' ', '\u00e9', '\u{1F600}', '\uFFFF', '\r\n', '{', '[', '|']
    let s = ''
    for (let i = int(max); i > 0; i--) s += pick(alphabet)
    return s
  }
  // Header values are bytes on the wire: keep them to Latin-1 without line breaks.
  const latin1 = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?')
  const actions = ['providers', 'csrf', 'session', 'signin', 'callback', 'signout', 'error', 'verify-request', 'webauthn-options', '', 'nope']
  const providers = ['credentials', 'email', 'idp', 'passkey', 'unknown', '', junk(6)]
  const path = () => {
    const parts = ['/auth']
    if (r() < 0.05) return pick(['/', '/authx', '//auth', '/auth/../etc/passwd', `/${junk(20)}`])
    parts.push(r() < 0.9 ? pick(actions) : junk(8))
    if (r() < 0.6) parts.push(r() < 0.8 ? pick(providers) : encodeURIComponent(junk(10)))
    if (r() < 0.1) parts.push(junk(5))
    let p = parts.join('/')
    if (r() < 0.4) {
      const q = new URLSearchParams()
      for (let i = int(5); i > 0; i--) q.append(pick(['callbackUrl', 'error', 'token', 'email', 'code', 'state', 'iss', 'action', junk(4)]), r() < 0.1 ? junk(3000) : junk(20))
      p += '?' + q
    }
    return p
  }
  const json = (depth: number): unknown => {
    const roll = r()
    // Leaves grow likelier with depth so a case stays small; deep() covers deep nesting.
    if (roll < 0.2 + depth * 0.15) return pick([null, true, 1e308, -0, '', junk(30), 'x'.repeat(int(2000))])
    if (roll < 0.5) return Array.from({ length: int(4) }, () => json(depth + 1))
    return Object.fromEntries(Array.from({ length: int(4) }, () => [pick(['csrfToken', 'data', 'email', 'callbackUrl', 'action', '__proto__', 'constructor', junk(5)]), json(depth + 1)]))
  }
  const deep = () => {
    const n = 1000 + int(50_000)
    return '['.repeat(n) + ']'.repeat(r() < 0.5 ? n : int(n))
  }
  const body = (): { body?: BodyInit; type?: string } => {
    switch (int(8)) {
      case 0:
        return {}
      case 1:
        return { body: JSON.stringify(json(0)), type: 'application/json' }
      case 2:
        return { body: deep(), type: 'application/json' }
      case 3:
        return { body: new URLSearchParams(Object.fromEntries(Array.from({ length: int(6) }, () => [pick(['csrfToken', 'email', 'username', 'password', 'callbackUrl', junk(4)]), junk(40)]))).toString(), type: 'application/x-www-form-urlencoded' }
      case 4:
        return { body: 'a='.repeat(int(60_000)), type: pick(['application/x-www-form-urlencoded', undefined as unknown as string]) }
      case 5:
        return { body: new Uint8Array(Array.from({ length: int(500) }, () => int(256))), type: pick(['application/json', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) }
      case 6:
        return { body: junk(200), type: pick(['application/json; charset=utf-8', 'APPLICATION/JSON', 'application/x-www-form-urlencoded;', '', junk(10)]) }
      default:
        return { body: 'x'.repeat(70_000 + int(100_000)), type: 'application/json' }
    }
  }
  const cookie = () => {
    const names = ['latchkey.session-token', 'latchkey.csrf-token', 'latchkey.callback-url', 'latchkey.pkce.code_verifier', 'latchkey.state', 'latchkey.nonce', 'latchkey.challenge', junk(5)]
    const pairs = Array.from({ length: int(5) }, () => `${pick(names)}=${pick([junk(40), 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..' + junk(30), 'a|b', '%', 'x'.repeat(int(8000))])}`)
    return latin1(pairs.join(pick(['; ', ';', ', ', ''])))
  }
  return () => {
    const method = pick(['GET', 'GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'])
    const headers = new Headers()
    if (r() < 0.7) headers.set('cookie', cookie())
    if (r() < 0.3) headers.set('x-auth-return-redirect', latin1(pick(['1', '0', junk(3)])))
    if (r() < 0.2) headers.set('origin', latin1(pick(['http://localhost:3000', 'https://evil.example', 'null', junk(10)])))
    if (r() < 0.1) headers.set('content-length', String(pick([0, -1, 1e12, 5])))
    const b = method === 'GET' || method === 'HEAD' ? {} : body()
    if (b.type) headers.set('content-type', latin1(b.type))
    return { method, path: path(), headers, body: b.body }
  }
}

const writes = ['createUser', 'updateUser', 'deleteUser', 'linkAccount', 'unlinkAccount', 'createSession', 'updateSession', 'deleteSession', 'createVerificationToken', 'useVerificationToken', 'createAuthenticator', 'updateAuthenticatorCounter', 'deleteAuthenticator', 'deleteSessionsByUserId'] as const

describe('fuzz: every route, malformed and random input', () => {
  it(`${cases} seeded cases: no 5xx, no stack trace, no secret, no stray write`, async () => {
    const adapter = MemoryAdapter()
    const written: string[] = []
    const watched: Adapter = { ...adapter }
    for (const m of writes) {
      const original = (adapter as any)[m].bind(adapter)
      ;(watched as any)[m] = (...args: unknown[]) => {
        written.push(m)
        return original(...args)
      }
    }
    const logs: string[] = []
    const handler = Latchkey({
      secret,
      adapter: watched,
      logger: { error: (e) => logs.push(`${e.message} ${String(e.cause ?? '')}`), warn: (c) => logs.push(c), debug: () => {} },
      providers: [
        Credentials({ credentials: { username: {}, password: {} }, authorize: () => null }),
        Email({ sendVerificationRequest: () => {} }),
        OIDC({ id: 'idp', name: 'IdP', issuer: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 'client-secret-NEVER-LEAK' }),
        Passkey(),
      ],
    })
    const next = generator(20261122)
    const started = Date.now()
    let ran = 0
    for (; ran < cases && Date.now() - started < budgetMs; ran++) {
      const c = next()
      let response: Response
      try {
        response = await handler(new Request(`http://localhost:3000${c.path.startsWith('/') ? '' : '/'}${c.path}`, { method: c.method, headers: c.headers, body: c.body, duplex: 'half' } as RequestInit))
      } catch (error) {
        throw new Error(`case ${ran} (${c.method} ${c.path}) threw: ${error}`)
      }
      const text = await response.text()
      const where = `case ${ran}: ${c.method} ${c.path.slice(0, 120)} -> ${response.status} ${text.slice(0, 160)}`
      // The one write a stranger may cause: a passkey ceremony's one-time challenge record.
      const wrote = written.splice(0)
      const challenge = response.status === 200 && /^\/auth\/webauthn-options\//.test(c.path)
      expect(wrote.filter((w) => !(challenge && w === 'createVerificationToken')), where).toEqual([])
      expect(response.status, where).toBeGreaterThanOrEqual(200)
      expect(response.status, where).toBeLessThan(500)
      expect(text, where).not.toMatch(/NEVER-LEAK|\bat [\w.<>]+ \(.*:\d+:\d+\)|node:internal/)
      expect(response.headers.get('location') ?? '', where).not.toMatch(/NEVER-LEAK/)
      if (response.status >= 400) expect(text.length, where).toBeGreaterThan(0)
    }
    expect(logs.join('\n')).not.toMatch(/NEVER-LEAK/)
    expect(ran).toBeGreaterThanOrEqual(Math.min(cases, 1000))
    console.log(`fuzz: ${ran} cases in ${Date.now() - started} ms`)
  }, 120_000)
})
