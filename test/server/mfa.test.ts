/**
 * Second factors over HTTP: enrol an authenticator app (its code computed here by an independent
 * RFC 6238 implementation), sign in with a password and then the code, recovery codes, and the
 * rules an attacker meets: no session before the second factor, a code good once, a pending
 * sign-in that is one browser's and one user's, five tries, the same answer whatever was wrong.
 * JWT and database sessions.
 */
import { describe, expect, it, vi } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { Jar } from '../support/jar.js'
import { lastLink, testServer, withoutCodeMethods } from '../support/server.js'
import type { Adapter } from '../../src/core/types.js'
import { secretOf, totp } from '../support/totp.js'

const asJson = { 'x-auth-return-redirect': '1' }

for (const strategy of ['database', 'jwt'] as const) {
  describe(`second factors (${strategy} sessions)`, () => {
    function server(adapter: Adapter = MemoryAdapter()) {
      const events: string[] = []
      const made = testServer({
        strategy,
        // JWT sessions keep no store of their own, but factors need one: the adapter is there for them.
        adapter,
        mfa: { issuer: 'Latchkey Test' },
        events: {
          mfaEnrolled: ({ user }) => void events.push(`enrolled ${user.email}`),
          mfaRemoved: ({ user }) => void events.push(`removed ${user.email}`),
          recoveryCodeUsed: ({ user, left }) => void events.push(`recovery ${user.email} left ${left}`),
        },
      })
      return { ...made, events }
    }

    const password = async (jar: Jar, username = 'ada', pw = 'lovelace') =>
      jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username, password: pw }, asJson)
    const mfa = async (jar: Jar, fields: Record<string, string>) => jar.postForm('/auth/mfa', { csrfToken: await jar.csrf(), ...fields })
    const verify = async (jar: Jar, fields: Record<string, string>) => jar.postForm('/auth/mfa/verify', { csrfToken: await jar.csrf(), ...fields }, asJson)
    /** A code no step near `now` takes. */
    const wrongFor = (secret: string, now: number) => {
      const near = new Set([-30_000, 0, 30_000].map((d) => totp(secret, now + d)))
      return ['000000', '111111', '222222', '333333'].find((c) => !near.has(c))!
    }
    const hasSessionCookie = (res: Response) => res.headers.getSetCookie().some((c) => c.startsWith('latchkey.session-token=') && !/Max-Age=0/.test(c))

    /** Ada signs in and enrols an app; answers its secret and her recovery codes. */
    async function enrolled(made: ReturnType<typeof server>) {
      const jar = new Jar(made.handler)
      await password(jar)
      const started = (await (await mfa(jar, { action: 'enroll', label: 'Phone' })).json()) as { factor: { id: string }; uri: string; secret: string; qr: string }
      const secret = secretOf(started.uri)
      const confirmed = (await (await mfa(jar, { action: 'confirm', id: started.factor.id, code: totp(secret, made.clock.now) })).json()) as { newRecoveryCodes: string[] }
      // The code just used is spent: the first sign-in's code must come from a later step.
      made.clock.now += 30_000
      return { jar, secret, started, recoveryCodes: confirmed.newRecoveryCodes }
    }

    it('enrolment: an otpauth URI, the secret, a QR code; the first code confirms it and makes 10 recovery codes, once', async () => {
      const made = server()
      const { jar, started, secret, recoveryCodes } = await enrolled(made)
      expect(started.uri).toMatch(/^otpauth:\/\/totp\/Latchkey%20Test:ada%40example\.com\?/)
      const uri = new URL(started.uri)
      expect(Object.fromEntries(uri.searchParams)).toMatchObject({ issuer: 'Latchkey Test', algorithm: 'SHA1', digits: '6', period: '30' })
      expect(secret).toBe(started.secret)
      expect(started.qr).toMatch(/^<svg[\s\S]*<\/svg>\s*$/)
      expect(recoveryCodes).toHaveLength(10)
      expect(new Set(recoveryCodes).size).toBe(10)
      expect(recoveryCodes.every((c) => /^[a-z2-9]{5}-[a-z2-9]{5}$/.test(c))).toBe(true)
      const list = (await (await jar.get('/auth/mfa')).json()) as { factors: unknown[]; recoveryCodes: number }
      expect(list).toEqual({ factors: [{ id: started.factor.id, type: 'totp', label: 'Phone', confirmed: true, createdAt: expect.any(String) }], recoveryCodes: 10, passkeys: 0, trustedDevices: [] })
      // Never the secret in the list.
      expect(JSON.stringify(list)).not.toContain(secret)
      expect(made.events).toEqual(['enrolled ada@example.com'])
    })

    it('a password alone makes no session: SecondFactorRequired, then the app code completes it with amr', async () => {
      const made = server()
      const { secret } = await enrolled(made)
      const jar = new Jar(made.handler)
      const first = await password(jar)
      expect(hasSessionCookie(first)).toBe(false)
      expect(await first.json()).toMatchObject({ error: 'SecondFactorRequired', url: 'http://localhost:3000/auth/signin?error=SecondFactorRequired' })
      expect(jar.cookies.has('latchkey.mfa-pending')).toBe(true)
      expect(await jar.session()).toBeNull()
      const second = await verify(jar, { code: totp(secret, made.clock.now) })
      expect(second.status).toBe(200)
      expect(hasSessionCookie(second)).toBe(true)
      expect(jar.cookies.has('latchkey.mfa-pending')).toBe(false)
      const session = await jar.session()
      expect(session.user.email).toBe('ada@example.com')
      expect(session.amr).toEqual(['pwd', 'otp', 'mfa'])
    })

    it('a code is good once: the same code again, even in a new sign-in, is refused as used already; a wrong one is still not right', async () => {
      const made = server()
      const { secret } = await enrolled(made)
      const code = totp(secret, made.clock.now)
      const a = new Jar(made.handler)
      await password(a)
      expect((await verify(a, { code })).status).toBe(200)
      const b = new Jar(made.handler)
      await password(b)
      const again = await verify(b, { code })
      expect(again.status).toBe(400)
      expect(await again.json()).toMatchObject({ error: 'CodeAlreadyUsed', message: 'This code was used already; wait for the authenticator app to show the next one' })
      // The code of the step before, right but older than the one used, is told the same.
      expect(await (await verify(b, { code: totp(secret, made.clock.now - 30_000) })).json()).toMatchObject({ error: 'CodeAlreadyUsed' })
      expect(await (await verify(b, { code: wrongFor(secret, made.clock.now) })).json()).toMatchObject({ error: 'InvalidCode' })
      expect(await b.session()).toBeNull()
      // The next step's code works (one step of skew each way is allowed).
      made.clock.now += 30_000
      expect((await verify(b, { code: totp(secret, made.clock.now) })).status).toBe(200)
    })

    it('a recovery code works once, and says how many are left', async () => {
      const made = server()
      const { recoveryCodes } = await enrolled(made)
      const jar = new Jar(made.handler)
      await password(jar)
      const used = await verify(jar, { recoveryCode: recoveryCodes[3]!.toUpperCase().replace('-', ' ') })
      expect(used.status).toBe(200)
      expect((await jar.session()).amr).toEqual(['pwd', 'recovery', 'mfa'])
      expect(made.events).toContain('recovery ada@example.com left 9')
      const other = new Jar(made.handler)
      await password(other)
      expect(await (await verify(other, { recoveryCode: recoveryCodes[3]! })).json()).toMatchObject({ error: 'InvalidCode' })
    })

    it('five tries per pending sign-in: the sixth, even right, finds it void', async () => {
      await fiveTries(server())
    })

    it('five tries per pending sign-in also where the tries are kept in verification tokens (an adapter without the code methods)', async () => {
      await fiveTries(server(withoutCodeMethods()))
    })

    async function fiveTries(made: ReturnType<typeof server>) {
      const { secret } = await enrolled(made)
      const jar = new Jar(made.handler)
      await password(jar)
      const answers = []
      for (let i = 0; i < 5; i++) answers.push(((await (await verify(jar, { code: '000000' })).json()) as { error: string }).error)
      expect(answers).toEqual(Array(5).fill('InvalidCode'))
      const sixth = await verify(jar, { code: totp(secret, made.clock.now) })
      expect(await sixth.json()).toMatchObject({ error: 'InvalidCode' })
      expect(await jar.session()).toBeNull()
      // The next sign-in has five of its own: the right code now completes it.
      const next = new Jar(made.handler)
      await password(next)
      expect((await verify(next, { code: totp(secret, made.clock.now) })).status).toBe(200)
    }

    it('the pending cookie is one user’s: it cannot complete another user’s sign-in, nor be replayed', async () => {
      const made = server()
      const { secret } = await enrolled(made)
      const jar = new Jar(made.handler)
      await password(jar)
      const pending = jar.cookies.get('latchkey.mfa-pending')!
      expect((await verify(jar, { code: totp(secret, made.clock.now) })).status).toBe(200)
      // Replayed after use, in another browser: void.
      const replay = new Jar(made.handler)
      replay.cookies.set('latchkey.mfa-pending', pending)
      made.clock.now += 30_000
      expect(await (await verify(replay, { code: totp(secret, made.clock.now) })).json()).toMatchObject({ error: 'InvalidCode' })
      expect(await replay.session()).toBeNull()
      // A forged pending cookie, and none at all, answer the same as a wrong code.
      const forged = new Jar(made.handler)
      forged.cookies.set('latchkey.mfa-pending', pending.slice(0, -4) + 'AAAA')
      const answers = [await verify(forged, { code: '123456' }), await verify(new Jar(made.handler), { code: '123456' })]
      for (const res of answers) expect(await res.json()).toEqual({ error: 'InvalidCode', message: expect.any(String) })
    })

    it('without script: the built-in sign-in page asks for the code and takes it as a form', async () => {
      const made = server()
      const { secret } = await enrolled(made)
      const jar = new Jar(made.handler)
      const first = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace', callbackUrl: '/home' })
      expect(first.status).toBe(302)
      expect(first.headers.get('location')).toBe('http://localhost:3000/auth/signin?error=SecondFactorRequired')
      const page = await (await jar.get('/auth/signin?error=SecondFactorRequired')).text()
      expect(page).toContain('Enter the code from your authenticator app to finish signing in.')
      expect(page).toContain('action="http://localhost:3000/auth/mfa/verify"')
      expect(page).not.toContain('Sign in with Credentials')
      const html = { accept: 'text/html' }
      const wrong = await jar.postForm('/auth/mfa/verify', { csrfToken: await jar.csrf(), code: '000000' }, html)
      expect(wrong.headers.get('location')).toBe('http://localhost:3000/auth/signin?error=InvalidCode')
      const code = totp(secret, made.clock.now)
      const right = await jar.postForm('/auth/mfa/verify', { csrfToken: await jar.csrf(), code }, html)
      expect(right.status).toBe(302)
      expect(right.headers.get('location')).toBe('http://localhost:3000/home')
      expect((await jar.session()).user.email).toBe('ada@example.com')
      // The same code in the next sign-in: the page says it was used already, and to wait for the next.
      const next = new Jar(made.handler)
      await next.postForm('/auth/callback/credentials', { csrfToken: await next.csrf(), username: 'ada', password: 'lovelace', callbackUrl: '/home' })
      const replayed = await next.postForm('/auth/mfa/verify', { csrfToken: await next.csrf(), code }, html)
      expect(replayed.headers.get('location')).toBe('http://localhost:3000/auth/signin?error=CodeAlreadyUsed')
      const said = await (await next.get('/auth/signin?error=CodeAlreadyUsed')).text()
      expect(said).toContain('That code was used already. Wait for your authenticator app to show the next one, then enter it.')
      expect(said).toContain('action="http://localhost:3000/auth/mfa/verify"')
      // Without a pending sign-in the page is the usual one.
      expect(await (await new Jar(made.handler).get('/auth/signin')).text()).toContain('Sign in with Credentials')
    })

    it('a user without a confirmed factor signs in as before; an unconfirmed enrolment asks nothing', async () => {
      const made = server()
      const jar = new Jar(made.handler)
      await password(jar)
      await mfa(jar, { action: 'enroll' })
      const again = new Jar(made.handler)
      const res = await password(again)
      expect(hasSessionCookie(res)).toBe(true)
      expect((await again.session()).amr).toEqual(['pwd'])
    })

    it('removing a factor takes a fresh session and its code; with none left the recovery codes go too', async () => {
      const made = server()
      const { secret, started } = await enrolled(made)
      const jar = new Jar(made.handler)
      await password(jar)
      await verify(jar, { code: totp(secret, made.clock.now) })
      made.clock.now += 30_000
      const without = await mfa(jar, { action: 'remove', id: started.factor.id })
      expect(await without.json()).toMatchObject({ error: 'InvalidCode' })
      const removed = await mfa(jar, { action: 'remove', id: started.factor.id, code: totp(secret, made.clock.now) })
      expect(await removed.json()).toEqual({ factors: [], recoveryCodes: 0, passkeys: 0, trustedDevices: [] })
      expect(made.events).toContain('removed ada@example.com')
      // Signing in again asks nothing more.
      expect(hasSessionCookie(await password(new Jar(made.handler)))).toBe(true)
    })

    it('management needs a signed-in user, the CSRF token, and a fresh session to enrol or renew codes', async () => {
      const made = server()
      const { jar } = await enrolled(made)
      expect((await new Jar(made.handler).get('/auth/mfa')).status).toBe(401)
      expect((await jar.postForm('/auth/mfa', { action: 'recovery-codes' })).status).toBe(403)
      made.clock.now += 2 * 3600_000
      const stale = await mfa(jar, { action: 'recovery-codes' })
      expect(await stale.json()).toMatchObject({ error: 'SessionNotFresh' })
      expect(await (await mfa(jar, { action: 'enroll' })).json()).toMatchObject({ error: 'SessionNotFresh' })
    })

    it('bad input gets a clear 4xx and changes nothing', async () => {
      const made = server()
      const { jar, started, secret } = await enrolled(made)
      const post = (path: string, body: unknown) => jar.postJson(path, body)
      const token = await jar.csrf()
      const answers = [
        await post('/auth/mfa', { csrfToken: token, action: 'confirm', id: ['x'], code: '123456' }),
        await post('/auth/mfa', { csrfToken: token, action: 'remove', id: 'not-a-factor', code: totp(secret, made.clock.now) }),
        await post('/auth/mfa', { csrfToken: token, action: 'drop-all' }),
        await post('/auth/mfa/verify', { csrfToken: token, code: { $gt: '' } }),
        await post('/auth/mfa/other', { csrfToken: token }),
        await post('/auth/mfa', { csrfToken: token, action: 'passkey-options' }),
        await post('/auth/mfa', { csrfToken: token, action: 'forget-device', id: { $ne: '' } }),
      ]
      for (const res of answers) {
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.status).toBeLessThan(500)
        const body = (await res.json()) as { error: string; message: string }
        expect(body.error).toMatch(/^(InvalidRequest|UnknownAction|InvalidCode)$/)
        expect(body.message).not.toMatch(/at \w+ \(|\.ts:\d+/)
      }
      const list = (await (await jar.get('/auth/mfa')).json()) as { factors: { id: string }[]; recoveryCodes: number }
      expect(list.factors.map((f) => f.id)).toEqual([started.factor.id])
      expect(list.recoveryCodes).toBe(10)
    })

    const signOut = async (jar: Jar) => jar.postForm('/auth/signout', { csrfToken: await jar.csrf() }, asJson)

    it("\"don't ask again on this device\": that browser skips the step, another does not; listed, forgotten, void once the factors change", async () => {
      const made = server()
      const { secret, jar: owner } = await enrolled(made)
      const device = new Jar(made.handler)
      await password(device)
      expect(await (await device.get('/auth/mfa/verify')).json()).toEqual({ setup: false, methods: ['otp', 'recovery'], trustDevices: 30 * 86400 })
      expect((await verify(device, { code: totp(secret, made.clock.now), trustDevice: 'true' })).status).toBe(200)
      expect(device.cookies.has('latchkey.mfa-device')).toBe(true)
      await signOut(device)
      expect(await device.session()).toBeNull()
      // This browser: a session at once, and its amr says only the password was asked.
      const again = await password(device)
      expect(hasSessionCookie(again)).toBe(true)
      expect((await device.session()).amr).toEqual(['pwd'])
      // Another browser, and a forged device cookie: asked.
      expect(await (await password(new Jar(made.handler))).json()).toMatchObject({ error: 'SecondFactorRequired' })
      const forged = new Jar(made.handler)
      forged.cookies.set('latchkey.mfa-device', device.cookies.get('latchkey.mfa-device')!.slice(0, -4) + 'AAAA')
      expect(await (await password(forged)).json()).toMatchObject({ error: 'SecondFactorRequired' })

      // Listed for the user, this browser marked; forgotten from another, it asks again.
      type Listed = { trustedDevices: { id: string; device: string; current: boolean; expiresAt: string }[] }
      const listed = (await (await device.get('/auth/mfa')).json()) as Listed
      expect(listed.trustedDevices).toEqual([{ id: expect.any(String), device: expect.any(String), current: true, createdAt: expect.any(String), expiresAt: expect.any(String) }])
      const [shown] = listed.trustedDevices as unknown as { createdAt: string; expiresAt: string }[]
      expect(Date.parse(shown!.expiresAt) - Date.parse(shown!.createdAt)).toBe(30 * 86400_000)
      const fromOwner = (await (await owner.get('/auth/mfa')).json()) as Listed
      expect(fromOwner.trustedDevices.map((d) => d.current)).toEqual([false])
      const forgot = (await (await mfa(owner, { action: 'forget-device', id: fromOwner.trustedDevices[0]!.id })).json()) as Listed
      expect(forgot.trustedDevices).toEqual([])
      await signOut(device)
      expect(await (await password(device)).json()).toMatchObject({ error: 'SecondFactorRequired' })

      // Trusted again, then a second app is added: every trusted device is void.
      made.clock.now += 30_000
      expect((await verify(device, { code: totp(secret, made.clock.now), trustDevice: 'true' })).status).toBe(200)
      expect(((await (await owner.get('/auth/mfa')).json()) as Listed).trustedDevices).toHaveLength(1)
      const second = (await (await mfa(owner, { action: 'enroll', label: 'Tablet' })).json()) as { factor: { id: string }; uri: string }
      expect((await mfa(owner, { action: 'confirm', id: second.factor.id, code: totp(secretOf(second.uri), made.clock.now) })).status).toBe(200)
      expect(((await (await owner.get('/auth/mfa')).json()) as Listed).trustedDevices).toEqual([])
      await signOut(device)
      expect(await (await password(device)).json()).toMatchObject({ error: 'SecondFactorRequired' })
      // Forgetting a device that is not the user's changes nothing and says so.
      expect((await mfa(owner, { action: 'forget-device', id: 'not-a-device' })).status).toBe(404)
    })

    it('a trusted device expires with mfa.trustDevices', async () => {
      const made = server()
      const { secret } = await enrolled(made)
      const device = new Jar(made.handler)
      await password(device)
      await verify(device, { code: totp(secret, made.clock.now), trustDevice: 'true' })
      await signOut(device)
      made.clock.now += 30 * 86400_000 + 1000
      // The cookie the browser would have dropped, kept here as an attacker's copy would be.
      expect(await (await password(device)).json()).toMatchObject({ error: 'SecondFactorRequired' })
    })

    it('GET /mfa/verify without a sign-in waiting answers 401 and names nothing', async () => {
      const made = server()
      const res = await new Jar(made.handler).get('/auth/mfa/verify')
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ error: 'AccessDenied' })
    })

    it('new recovery codes void the old set', async () => {
      const made = server()
      const { jar, recoveryCodes, secret } = await enrolled(made)
      const renewed = (await (await mfa(jar, { action: 'recovery-codes', code: totp(secret, made.clock.now) })).json()) as { newRecoveryCodes: string[] }
      expect(renewed.newRecoveryCodes).toHaveLength(10)
      const signingIn = new Jar(made.handler)
      await password(signingIn)
      expect(await (await verify(signingIn, { recoveryCode: recoveryCodes[0]! })).json()).toMatchObject({ error: 'InvalidCode' })
      expect((await verify(signingIn, { recoveryCode: renewed.newRecoveryCodes[0]! })).status).toBe(200)
    })

    it('a copied fresh session cannot make new recovery codes without a second factor; the owner’s still work; with one it can', async () => {
      const made = server()
      const { jar: owner, recoveryCodes, secret } = await enrolled(made)
      // The thief holds a copy of the owner's fresh session cookie, and no factor.
      const thief = new Jar(made.handler)
      thief.cookies.set('latchkey.session-token', owner.cookies.get('latchkey.session-token')!)
      expect((await thief.session()).user.email).toBe('ada@example.com')
      for (const proof of [{}, { code: '000000' }, { recoveryCode: 'aaaaa-aaaaa' }] as Record<string, string>[]) {
        const refused = await mfa(thief, { action: 'recovery-codes', ...proof })
        expect(refused.status).toBe(400)
        const body = (await refused.json()) as Record<string, unknown>
        expect(body).toMatchObject({ error: 'InvalidCode' })
        expect(body).not.toHaveProperty('newRecoveryCodes')
      }
      expect(((await (await owner.get('/auth/mfa')).json()) as { recoveryCodes: number }).recoveryCodes).toBe(10)
      // The owner's codes still sign in.
      const signingIn = new Jar(made.handler)
      await password(signingIn)
      expect((await verify(signingIn, { recoveryCode: recoveryCodes[0]! })).status).toBe(200)
      // With a second factor the same session can: an app's code, or one of the codes it voids.
      const byCode = (await (await mfa(owner, { action: 'recovery-codes', code: totp(secret, made.clock.now) })).json()) as { newRecoveryCodes: string[] }
      expect(byCode.newRecoveryCodes).toHaveLength(10)
      const byRecovery = (await (await mfa(owner, { action: 'recovery-codes', recoveryCode: byCode.newRecoveryCodes[0]! })).json()) as { newRecoveryCodes: string[]; recoveryCodes: number }
      expect(byRecovery.newRecoveryCodes).toHaveLength(10)
      expect(byRecovery.recoveryCodes).toBe(10)
    })

    it('guesses at a second factor from a copied fresh session are limited: the 21st remove or renewal is a 429, the right code too, until the window passes', async () => {
      const made = server()
      const { jar: owner, started, secret } = await enrolled(made)
      const thief = new Jar(made.handler)
      thief.cookies.set('latchkey.session-token', owner.cookies.get('latchkey.session-token')!)
      // The second steps of sign-ins and these share the per-user limit (20 in 15 minutes).
      for (let i = 0; i < 20; i++) {
        const action = i % 2 ? 'remove' : 'recovery-codes'
        const wrong = await mfa(thief, { action, id: started.factor.id, code: String(100000 + i) })
        expect(await wrong.json()).toMatchObject({ error: 'InvalidCode' })
      }
      for (const action of ['remove', 'recovery-codes']) {
        const limited = await mfa(thief, { action, id: started.factor.id, code: totp(secret, made.clock.now) })
        expect(limited.status).toBe(429)
        expect(await limited.json()).toMatchObject({ error: 'RateLimited' })
      }
      const list = (await (await owner.get('/auth/mfa')).json()) as { factors: unknown[]; recoveryCodes: number }
      expect(list.factors).toHaveLength(1)
      expect(list.recoveryCodes).toBe(10)
      // The session stays fresh on the test's clock; a new window takes the right code again.
      made.clock.now += 16 * 60_000
      await password(new Jar(made.handler)) // keeps the clock's steps apart from the last used code
      const renewed = await mfa(owner, { action: 'recovery-codes', code: totp(secret, made.clock.now) })
      expect(renewed.status).toBe(200)
    })
  })
}

describe('second factors: required', () => {
  const asJson = { 'x-auth-return-redirect': '1' }
  const password = async (jar: Jar, username: string) => jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username, password: 'lovelace', callbackUrl: '/home' }, asJson)

  it('mfa.requireFor: a user who must have one adds it at sign-in, before any session; then signs in with it', async () => {
    const made = testServer({
      adapter: MemoryAdapter(),
      mfa: { requireFor: (user) => user.email === 'ada@example.com' },
    })
    const jar = new Jar(made.handler)
    const first = await password(jar, 'ada')
    expect(await first.json()).toMatchObject({ error: 'SecondFactorSetupRequired' })
    expect(first.headers.getSetCookie().some((c) => c.startsWith('latchkey.session-token='))).toBe(false)
    expect(await jar.session()).toBeNull()
    // The pending sign-in may enrol and confirm, nothing else.
    const mfa = async (fields: Record<string, string>) => jar.postForm('/auth/mfa', { csrfToken: await jar.csrf(), ...fields })
    expect((await mfa({ action: 'recovery-codes' })).status).toBe(401)
    expect((await jar.get('/auth/mfa')).status).toBe(401)
    const started = (await (await mfa({ action: 'enroll' })).json()) as { factor: { id: string }; uri: string }
    expect(await jar.session()).toBeNull()
    const done = (await (await mfa({ action: 'confirm', id: started.factor.id, code: totp(secretOf(started.uri), made.clock.now) })).json()) as { url: string; newRecoveryCodes: string[] }
    expect(done.url).toBe('http://localhost:3000/home')
    expect(done.newRecoveryCodes).toHaveLength(10)
    const session = await jar.session()
    expect(session.user.email).toBe('ada@example.com')
    expect(session.amr).toEqual(['pwd', 'otp', 'mfa'])
    // The pending sign-in is spent: it cannot enrol again.
    const other = new Jar(made.handler)
    other.cookies.set('latchkey.mfa-pending', 'x')
    expect((await other.postForm('/auth/mfa', { csrfToken: await other.csrf(), action: 'enroll' })).status).toBe(401)
    // Next time: the usual second step.
    made.clock.now += 30_000
    expect(await (await password(new Jar(made.handler), 'ada')).json()).toMatchObject({ error: 'SecondFactorRequired' })
  })

  it('mfa.freshSecondFactor: renewing the held session asks for the second factor too, trusted device or not', async () => {
    const made = testServer({ adapter: MemoryAdapter(), mfa: { freshSecondFactor: true } })
    const jar = new Jar(made.handler)
    await password(jar, 'ada')
    const mfa = async (fields: Record<string, string>) => jar.postForm('/auth/mfa', { csrfToken: await jar.csrf(), ...fields })
    const started = (await (await mfa({ action: 'enroll' })).json()) as { factor: { id: string }; uri: string }
    const secret = secretOf(started.uri)
    await mfa({ action: 'confirm', id: started.factor.id, code: totp(secret, made.clock.now) })
    made.clock.now += 30_000
    // Signed out, then in again with the second factor, trusting this browser.
    await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() }, asJson)
    expect(await (await password(jar, 'ada')).json()).toMatchObject({ error: 'SecondFactorRequired' })
    await jar.postForm('/auth/mfa/verify', { csrfToken: await jar.csrf(), code: totp(secret, made.clock.now), trustDevice: 'true' }, asJson)
    const before = await jar.session()
    expect(before.user.email).toBe('ada@example.com')
    made.clock.now += 2 * 3600_000
    // Signed in and trusted: a sign-in again only to make the session fresh still asks.
    const renew = await password(jar, 'ada')
    expect(await renew.json()).toMatchObject({ error: 'SecondFactorRequired' })
    // The held session stays as it was until the second factor: not fresh.
    expect((await jar.session()).signedInAt).toBe(before.signedInAt)
    made.clock.now += 30_000
    expect((await jar.postForm('/auth/mfa/verify', { csrfToken: await jar.csrf(), code: totp(secret, made.clock.now) }, asJson)).status).toBe(200)
    const after = await jar.session()
    expect(Date.parse(after.signedInAt)).toBeGreaterThan(Date.parse(before.signedInAt))
    expect(after.amr).toEqual(['pwd', 'otp', 'mfa'])
  })

  it('without it, renewing the held session asks nothing more', async () => {
    const made = testServer({ adapter: MemoryAdapter(), mfa: true })
    const jar = new Jar(made.handler)
    await password(jar, 'ada')
    const mfa = async (fields: Record<string, string>) => jar.postForm('/auth/mfa', { csrfToken: await jar.csrf(), ...fields })
    const started = (await (await mfa({ action: 'enroll' })).json()) as { factor: { id: string }; uri: string }
    await mfa({ action: 'confirm', id: started.factor.id, code: totp(secretOf(started.uri), made.clock.now) })
    made.clock.now += 2 * 3600_000
    expect(await (await password(jar, 'ada')).json()).toEqual({ url: 'http://localhost:3000/home' })
  })

  it('mfa.requireFor answering false asks nothing', async () => {
    const made = testServer({ adapter: MemoryAdapter(), mfa: { requireFor: (user) => user.email === 'admin@example.com' } })
    const jar = new Jar(made.handler)
    expect(await (await password(jar, 'ada')).json()).toEqual({ url: 'http://localhost:3000/home' })
    expect((await jar.session()).amr).toEqual(['pwd'])
  })

  it('mfa.required: every user must', async () => {
    const made = testServer({ adapter: MemoryAdapter(), mfa: { required: true } })
    const res = await password(new Jar(made.handler), 'ada')
    expect(await res.json()).toMatchObject({ error: 'SecondFactorSetupRequired', url: 'http://localhost:3000/auth/signin?error=SecondFactorSetupRequired' })
  })
})

describe('second factors: the step due is an answer, not a failure', () => {
  const asJson = { 'x-auth-return-redirect': '1' }
  /** The cookies an answer sets, but the ones it clears. */
  const setNames = (res: Response) => res.headers.getSetCookie().filter((c) => !/Max-Age=0/.test(c)).map((c) => c.slice(0, c.indexOf('=')))

  it('every way in answers it alike: the pending cookie and no other (not the held session renewed), no session, no error logged, no signIn event', async () => {
    const signIns: string[] = []
    // freshSecondFactor: a sign-in again over a held session is asked too, and that session is due for renewal.
    const made = testServer({ adapter: MemoryAdapter(), mfa: { freshSecondFactor: true }, events: { signIn: ({ user }) => void signIns.push(user.email!) } })
    const ada = new Jar(made.handler)
    await ada.postForm('/auth/callback/credentials', { csrfToken: await ada.csrf(), username: 'ada', password: 'lovelace' }, asJson)
    const grace = new Jar(made.handler)
    await grace.postForm('/auth/signin/email', { csrfToken: await grace.csrf(), email: 'grace@example.com' }, asJson)
    await grace.postForm('/auth/callback/email', { csrfToken: await grace.csrf(), email: 'grace@example.com', code: made.outbox.at(-1)!.code! }, asJson)
    for (const jar of [ada, grace]) {
      const mfa = async (fields: Record<string, string>) => jar.postForm('/auth/mfa', { csrfToken: await jar.csrf(), ...fields })
      const started = (await (await mfa({ action: 'enroll' })).json()) as { factor: { id: string }; uri: string }
      await mfa({ action: 'confirm', id: started.factor.id, code: totp(secretOf(started.uri), made.clock.now) })
    }
    expect(signIns).toEqual(['ada@example.com', 'grace@example.com'])
    made.clock.now += 2 * 86400_000
    const waiting = 'http://localhost:3000/auth/signin?error=SecondFactorRequired'

    // Credentials posted to /signin (the start) and to /callback, the latter over Ada's held session.
    const fresh = new Jar(made.handler)
    const started = await fresh.postForm('/auth/signin/credentials', { csrfToken: await fresh.csrf(), username: 'ada', password: 'lovelace' }, asJson)
    expect(started.status).toBe(401)
    expect(await started.json()).toEqual({ error: 'SecondFactorRequired', url: waiting })
    expect(setNames(started)).toEqual(['latchkey.mfa-pending'])
    const again = await ada.postForm('/auth/callback/credentials', { csrfToken: await ada.csrf(), username: 'ada', password: 'lovelace' }, asJson)
    expect(await again.json()).toEqual({ error: 'SecondFactorRequired', url: waiting })
    expect(setNames(again)).toEqual(['latchkey.mfa-pending'])

    // An email code, and an email link opened in the browser that asked for it (a redirect, no script).
    const typed = new Jar(made.handler)
    await typed.postForm('/auth/signin/email', { csrfToken: await typed.csrf(), email: 'grace@example.com' }, asJson)
    const coded = await typed.postForm('/auth/callback/email', { csrfToken: await typed.csrf(), email: 'grace@example.com', code: made.outbox.at(-1)!.code! }, asJson)
    expect(coded.status).toBe(401)
    expect(await coded.json()).toEqual({ error: 'SecondFactorRequired', url: waiting })
    expect(setNames(coded)).toEqual(['latchkey.mfa-pending'])
    const clicked = new Jar(made.handler)
    await clicked.postForm('/auth/signin/email', { csrfToken: await clicked.csrf(), email: 'grace@example.com' }, asJson)
    const link = await clicked.get(lastLink(made.outbox))
    expect(link.status).toBe(302)
    expect(link.headers.get('location')).toBe(waiting)
    expect(setNames(link)).toEqual(['latchkey.mfa-pending'])

    for (const jar of [fresh, typed, clicked]) expect(await jar.session()).toBeNull()
    expect(made.logs.filter((line) => line.startsWith('error'))).toEqual([])
    expect(signIns).toEqual(['ada@example.com', 'grace@example.com'])
  })
})

describe('second factors: configuration', () => {
  it('mfa with an adapter that lacks the factor methods is refused at start-up, naming them', async () => {
    const { createFactor: _a, useFactorStep: _b, ...lacking } = MemoryAdapter()
    expect(() => testServer({ mfa: true, adapter: lacking })).toThrow(/mfa needs the adapter methods createFactor, useFactorStep/)
  })

  it('mfa.trustDevices out of range is refused at start-up; false turns the offer off', async () => {
    expect(() => testServer({ adapter: MemoryAdapter(), mfa: { trustDevices: 60 } })).toThrow(/mfa.trustDevices must be false or a whole number of seconds from 3600/)
    const made = testServer({ adapter: MemoryAdapter(), mfa: { trustDevices: false } })
    const jar = new Jar(made.handler)
    await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' }, { 'x-auth-return-redirect': '1' })
    const mfa = async (fields: Record<string, string>) => jar.postForm('/auth/mfa', { csrfToken: await jar.csrf(), ...fields })
    const started = (await (await mfa({ action: 'enroll' })).json()) as { factor: { id: string }; uri: string }
    const secret = secretOf(started.uri)
    await mfa({ action: 'confirm', id: started.factor.id, code: totp(secret, made.clock.now) })
    made.clock.now += 30_000
    const other = new Jar(made.handler)
    await other.postForm('/auth/callback/credentials', { csrfToken: await other.csrf(), username: 'ada', password: 'lovelace' }, { 'x-auth-return-redirect': '1' })
    expect(await (await other.get('/auth/mfa/verify')).json()).toMatchObject({ trustDevices: false })
    await other.postForm('/auth/mfa/verify', { csrfToken: await other.csrf(), code: totp(secret, made.clock.now), trustDevice: 'true' }, { 'x-auth-return-redirect': '1' })
    expect(other.cookies.has('latchkey.mfa-device')).toBe(false)
    expect((await other.session()).user.email).toBe('ada@example.com')
  })

  it('off by default: /mfa is not installed (404 UnknownAction), and sign-ins are as before', async () => {
    const { handler } = testServer()
    const jar = new Jar(handler)
    const res = await jar.get('/auth/mfa')
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ error: 'UnknownAction' })
  })
})

describe('the issuer authenticator apps show', () => {
  /** The issuer of the otpauth:// URI an enrolment answers, on a server made with `options`. */
  async function issuerOf(options: Parameters<typeof testServer>[0]): Promise<string | null> {
    const jar = new Jar(testServer({ mfa: true, ...options }).handler)
    await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' }, asJson)
    const started = (await (await jar.postForm('/auth/mfa', { csrfToken: await jar.csrf(), action: 'enroll' })).json()) as { uri: string }
    return new URL(started.uri).searchParams.get('issuer')
  }

  it('is mfa.issuer, else theme.name, else the host of origin or of AUTH_URL', async () => {
    expect(await issuerOf({ mfa: { issuer: 'Given' }, theme: { name: 'My App' } })).toBe('Given')
    expect(await issuerOf({ theme: { name: 'My App' } })).toBe('My App')
    expect(await issuerOf({ origin: 'http://localhost:3000' })).toBe('localhost:3000')
    vi.stubEnv('AUTH_URL', 'http://localhost:3000/')
    try {
      expect(await issuerOf({})).toBe('localhost:3000')
    } finally {
      vi.unstubAllEnvs()
    }
  })
})
