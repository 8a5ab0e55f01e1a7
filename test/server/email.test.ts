import { describe, expect, it } from 'vitest'
import { followEmailLink } from '../support/email-link.js'
import { Jar } from '../support/jar.js'
import { lastLink, testServer } from '../support/server.js'

async function requestLink(jar: Jar, email: string) {
  return jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email, callbackUrl: '/dashboard' })
}

describe('email sign-in', () => {
  it('sends a link, stores only a hash, and the link signs in once', async () => {
    const { handler, adapter, outbox } = testServer()
    const jar = new Jar(handler)
    const res = await requestLink(jar, '  Grace@Example.COM ')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toMatch(/\/auth\/verify-request/)
    expect(outbox).toHaveLength(1)
    expect(outbox[0].identifier).toBe('grace@example.com')
    const link = new URL(outbox[0].url)
    expect(link.searchParams.get('email')).toBe('grace@example.com')
    // The store holds the HMAC of the token, never the token.
    const token = link.searchParams.get('token')!
    expect(await adapter.useVerificationToken({ identifier: 'grace@example.com', token })).toBeNull()

    const signedIn = await jar.get(lastLink(outbox))
    expect(signedIn.status).toBe(302)
    expect(signedIn.headers.get('location')).toBe('http://localhost:3000/dashboard')
    const session = await jar.session()
    expect(session.user.email).toBe('grace@example.com')
    const user = await adapter.getUserByEmail('grace@example.com')
    expect(user!.emailVerified!.getTime()).toBe(Date.parse('2026-01-01T00:00:00Z'))
    expect(await adapter.getUserByAccount({ provider: 'email', providerAccountId: 'grace@example.com' })).toMatchObject({ id: user!.id })

    // A second use fails and changes nothing.
    const other = new Jar(handler)
    const again = await followEmailLink(other, lastLink(outbox))
    expect(again.headers.get('location')).toBe('http://localhost:3000/auth/error?error=Verification')
    expect(await other.session()).toBeNull()
  })

  it('keeps emailVerified at the first sign-in date', async () => {
    const { handler, adapter, outbox, clock } = testServer()
    const first = clock.now
    const jar = new Jar(handler)
    await requestLink(jar, 'grace@example.com')
    await jar.get(lastLink(outbox))
    clock.now += 86400_000
    await requestLink(jar, 'grace@example.com')
    await jar.get(lastLink(outbox))
    expect((await adapter.getUserByEmail('grace@example.com'))!.emailVerified!.getTime()).toBe(first)
  })

  it('refuses a wrong address and leaves the token usable', async () => {
    const { handler, outbox } = testServer()
    const jar = new Jar(handler)
    await requestLink(jar, 'grace@example.com')
    const link = new URL(outbox[0].url)
    link.searchParams.set('email', 'mallory@example.com')
    const res = await followEmailLink(jar, link.pathname + link.search)
    expect(res.headers.get('location')).toMatch(/error=Verification/)
    expect(await jar.session()).toBeNull()
    expect((await jar.get(lastLink(outbox))).headers.get('location')).toBe('http://localhost:3000/dashboard')
  })

  it('refuses an expired link', async () => {
    const { handler, adapter, outbox, clock } = testServer()
    const jar = new Jar(handler)
    await requestLink(jar, 'grace@example.com')
    clock.now += 24 * 3600_000
    const res = await followEmailLink(jar, lastLink(outbox))
    expect(res.headers.get('location')).toMatch(/error=Verification/)
    expect(await jar.session()).toBeNull()
    expect(await adapter.getUserByEmail('grace@example.com')).toBeNull()
  })

  it('refuses an address that is not one, and sends nothing', async () => {
    const { handler, outbox } = testServer()
    const jar = new Jar(handler)
    for (const email of ['', 'nobody', 'a@', '@b.c', 'a b@c.d', 'a@b@c']) {
      const res = await requestLink(jar, email)
      expect(res.headers.get('location')).toMatch(/error=EmailSignin/)
    }
    expect(outbox).toHaveLength(0)
  })

  it('a link made under an older secret still works after rotation', async () => {
    const old = testServer()
    const jar = new Jar(old.handler)
    await requestLink(jar, 'grace@example.com')
    const { Latchkey } = await import('../../src/server/index.js')
    const rotated = Latchkey({
      secret: ['a-brand-new-secret-0123456789', 'test-secret-0123456789-abcdefghij'],
      adapter: old.adapter,
      now: () => old.clock.now,
      providers: [(await import('../../src/providers/email.js')).default({ sendVerificationRequest: () => {} })],
    })
    const res = await followEmailLink(new Jar(rotated), lastLink(old.outbox))
    expect(res.headers.get('location')).toBe('http://localhost:3000/dashboard')
  })
})
