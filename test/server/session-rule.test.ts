import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { parseTiming, timingHeader } from '../../src/core/session-rule.js'
import { storedSessionToken } from '../../src/server/kernel/session-token.js'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

const day = 86400_000

async function signIn(jar: Jar) {
  const csrfToken = await jar.csrf()
  const res = await jar.postForm('/auth/callback/credentials', { csrfToken, username: 'ada', password: 'lovelace' })
  expect(res.status).toBe(302)
  return res
}

function cookieExpiry(res: Response, name = 'latchkey.session-token'): number | null {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(name + '='))
  const m = line && /Expires=([^;]+)/.exec(line)
  return m ? Date.parse(m[1]) : null
}

for (const strategy of ['database', 'jwt'] as const) {
  describe(`the in-step session rule (${strategy})`, () => {
    it('sets the cookie expiry to the session expiry and announces it at sign-in', async () => {
      const { handler, adapter, clock } = testServer({ strategy })
      const jar = new Jar(handler)
      const res = await signIn(jar)
      const expires = clock.now + 30 * day
      expect(cookieExpiry(res)).toBe(expires)
      expect(parseTiming(res.headers.get(timingHeader))).toEqual({ expires, due: clock.now + day })
      if (strategy === 'database') {
        const token = jar.cookies.get('latchkey.session-token')!
        expect((await adapter.getSessionAndUser(await storedSessionToken(token)))!.session.expires.getTime()).toBe(expires)
      }
      expect((await jar.session()).expires).toBe(new Date(expires).toISOString())
    })

    it('extends exactly once per updateAge, and only when due', async () => {
      const { handler, adapter, clock } = testServer({ strategy })
      const jar = new Jar(handler)
      await signIn(jar)
      const start = clock.now
      const extensions: number[] = []
      // Read every 6 hours for 3 days: due at 24h, 48h, 72h after each extension.
      for (let h = 6; h <= 72; h += 6) {
        clock.now = start + h * 3600_000
        const res = await jar.get('/auth/session')
        const body = await res.json()
        expect(body.user.email).toBe('ada@example.com')
        const header = parseTiming(res.headers.get(timingHeader))!
        if (cookieExpiry(res) !== null) {
          extensions.push(h)
          expect(header.expires).toBe(clock.now + 30 * day)
          expect(cookieExpiry(res)).toBe(header.expires)
          expect(body.expires).toBe(new Date(header.expires).toISOString())
          if (strategy === 'database') {
            const token = jar.cookies.get('latchkey.session-token')!
            expect((await adapter.getSessionAndUser(await storedSessionToken(token)))!.session.expires.getTime()).toBe(header.expires)
          }
        } else {
          expect(res.headers.getSetCookie()).toEqual([])
          // A read that does not extend still tells the timing of the session as it stands.
          expect(header).toEqual({ expires: Date.parse(body.expires), due: Date.parse(body.expires) - 29 * day })
        }
      }
      expect(extensions).toEqual([24, 48, 72])
    })

    it('every read tells the timing, so a sign-in the worker did not see (a navigation) is timed like any other', async () => {
      const { handler, clock } = testServer({ strategy })
      const jar = new Jar(handler)
      const created = await signIn(jar)
      const atSignIn = parseTiming(created.headers.get(timingHeader))
      clock.now += 1000
      const read = await jar.get('/auth/session')
      expect(read.headers.getSetCookie()).toEqual([])
      expect(parseTiming(read.headers.get(timingHeader))).toEqual(atSignIn)
    })

    it('an access after expiry removes the session and clears the cookie', async () => {
      const { handler, adapter, clock } = testServer({ strategy })
      const jar = new Jar(handler)
      await signIn(jar)
      const token = jar.cookies.get('latchkey.session-token')!
      clock.now += 30 * day
      const res = await jar.get('/auth/session')
      expect(await res.json()).toBeNull()
      expect(res.headers.get(timingHeader)).toBe('none')
      expect(res.headers.getSetCookie().some((c) => /^latchkey\.session-token=;.*Max-Age=0/.test(c))).toBe(true)
      expect(jar.cookies.has('latchkey.session-token')).toBe(false)
      if (strategy === 'database') expect(await adapter.getSessionAndUser(await storedSessionToken(token))).toBeNull()
    })

    it('every sign-in makes a new session token', async () => {
      const { handler } = testServer({ strategy })
      const jar = new Jar(handler)
      await signIn(jar)
      const first = jar.cookies.get('latchkey.session-token')
      await signIn(jar)
      expect(jar.cookies.get('latchkey.session-token')).not.toBe(first)
    })

    it('sign-out clears the cookie, announces it and ends the session', async () => {
      const { handler, adapter } = testServer({ strategy })
      const jar = new Jar(handler)
      await signIn(jar)
      const token = jar.cookies.get('latchkey.session-token')!
      const res = await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() })
      expect(res.status).toBe(302)
      expect(res.headers.get(timingHeader)).toBe('none')
      expect(await jar.session()).toBeNull()
      if (strategy === 'database') expect(await adapter.getSessionAndUser(await storedSessionToken(token))).toBeNull()
    })
  })
}

describe('updateAge 0', () => {
  it('extends on every access', async () => {
    const { handler, clock } = testServer({ session: { strategy: 'database', maxAge: 3600, updateAge: 0 } })
    const jar = new Jar(handler)
    await signIn(jar)
    for (let i = 1; i <= 3; i++) {
      clock.now += 1000
      const res = await jar.get('/auth/session')
      expect(parseTiming(res.headers.get(timingHeader))?.expires).toBe(clock.now + 3600_000)
    }
  })
})

describe('a sign-in over a session the browser holds', () => {
  it('still signs in when deleting the replaced session fails (an adapter that throws on a missing row), and logs it', async () => {
    const base = MemoryAdapter()
    const adapter = { ...base, deleteSession: async () => Promise.reject(new Error('Record to delete does not exist')) }
    const { handler, logs } = testServer({ adapter })
    const jar = new Jar(handler)
    await signIn(jar)
    const replaced = jar.cookies.get('latchkey.session-token')
    const res = await signIn(jar)
    expect(res.headers.get('location')).not.toMatch(/error=/)
    expect(jar.cookies.get('latchkey.session-token')).not.toBe(replaced)
    expect((await jar.session()).user.email).toBe('ada@example.com')
    expect(logs).toEqual([expect.stringMatching(/^error AdapterError: Deleting the session this sign-in replaced failed.*Record to delete does not exist/)])
  })
})
