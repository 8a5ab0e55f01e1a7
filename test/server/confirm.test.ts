/**
 * "Confirm it's you": a sign-in with `confirm=true` signs the signed-in user in again (a fresh
 * session) and refuses, changing nothing, when it would sign in anyone else or a new user.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import { Latchkey } from '../../src/server/index.js'
import type { SendVerificationRequestParams } from '../../src/core/types.js'
import { followEmailLink } from '../support/email-link.js'
import { Jar } from '../support/jar.js'
import { lastLink, testSecret } from '../support/server.js'

function app(strategy: 'database' | 'jwt' = 'database') {
  const clock = { now: Date.parse('2026-05-01T00:00:00Z') }
  const adapter = MemoryAdapter()
  const outbox: SendVerificationRequestParams[] = []
  const handler = Latchkey({
    secret: testSecret,
    adapter,
    session: { strategy },
    now: () => clock.now,
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: async ({ username, password }) =>
          password === 'pw' && typeof username === 'string' ? { id: `id-${username}`, email: `${username}@example.com`, name: username } : null,
      }),
      Email({ sendVerificationRequest: (p) => void outbox.push(p) }),
    ],
  })
  return { handler, adapter, outbox, clock }
}

async function signIn(jar: Jar, username: string, extra: Record<string, string> = {}) {
  return jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username, password: 'pw', ...extra }, { 'x-auth-return-redirect': '1' })
}

describe.each(['database', 'jwt'] as const)('confirm (%s sessions)', (strategy) => {
  it('signs the same user in again: a new, fresh session', async () => {
    const { handler, clock } = app(strategy)
    const jar = new Jar(handler)
    await signIn(jar, 'ada')
    const first = await jar.session()
    clock.now += 2 * 3600_000
    expect(handler.isFresh(first)).toBe(false)
    const res = await signIn(jar, 'ada', { confirm: 'true' })
    expect(res.status).toBe(200)
    const again = await jar.session()
    expect(again.user.email).toBe('ada@example.com')
    expect(again.signedInAt).toBe(new Date(clock.now).toISOString())
    expect(handler.isFresh(again)).toBe(true)
  })

  it('refuses another account, changing nothing: same session, no new user', async () => {
    const { handler, adapter, clock } = app(strategy)
    const jar = new Jar(handler)
    await signIn(jar, 'ada')
    const cookie = jar.cookies.get('latchkey.session-token')
    clock.now += 60_000
    const res = await signIn(jar, 'mallory', { confirm: 'true' })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error: 'AccessDenied' })
    expect(jar.cookies.get('latchkey.session-token')).toBe(cookie)
    expect((await jar.session()).user.email).toBe('ada@example.com')
    expect(await adapter.getUserByEmail('mallory@example.com')).toBeNull()
  })

  it('needs someone signed in', async () => {
    const { handler } = app(strategy)
    const jar = new Jar(handler)
    const res = await signIn(jar, 'ada', { confirm: 'true' })
    expect(res.status).toBe(401)
    expect(await jar.session()).toBeNull()
  })
})

describe('confirm across an email link (the sign-in leaves the site)', () => {
  async function emailStart(jar: Jar, email: string) {
    return jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email, confirm: 'true' })
  }

  it("the owner's own link confirms; another address's link is refused and creates nobody", async () => {
    const { handler, adapter, outbox } = app()
    const jar = new Jar(handler)
    await signIn(jar, 'ada')
    expect((await emailStart(jar, 'ada@example.com')).status).toBe(302)
    expect(jar.cookies.has('latchkey.confirm')).toBe(true)
    const ok = await jar.get(lastLink(outbox))
    expect(ok.status).toBe(302)
    expect(ok.headers.get('location')).not.toMatch(/error=/)
    expect(jar.cookies.has('latchkey.confirm')).toBe(false)
    expect((await jar.session()).user.email).toBe('ada@example.com')

    const before = jar.cookies.get('latchkey.session-token')
    await emailStart(jar, 'someone-else@example.com')
    // Another address than the signed-in user's: the link asks first; clicking on is refused.
    const refused = await followEmailLink(jar, lastLink(outbox))
    expect(refused.headers.get('location')).toMatch(/error=AccessDenied/)
    expect(jar.cookies.get('latchkey.session-token')).toBe(before)
    expect(await adapter.getUserByEmail('someone-else@example.com')).toBeNull()
  })

  it('a forged confirm cookie confirms nobody', async () => {
    const { handler, outbox } = app()
    const jar = new Jar(handler)
    await signIn(jar, 'ada')
    await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'ada@example.com' })
    jar.cookies.set('latchkey.confirm', 'forged')
    const res = await jar.get(lastLink(outbox))
    // Unreadable: no confirmation asked, so an ordinary email sign-in of the address's owner.
    expect(res.headers.get('location')).not.toMatch(/error=/)
    expect(jar.cookies.has('latchkey.confirm')).toBe(false)
  })
})
