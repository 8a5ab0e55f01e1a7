/**
 * Email-and-password accounts over HTTP: sign-up, the confirmation code and link page, sign-in,
 * forgotten and changed passwords, and what an attacker meets: the same answers (and about the
 * same time) for addresses with and without accounts, breached passwords refused (against a
 * local range server), the hash nowhere in an answer or a log, old hashes made again, a reset
 * that ends every session, and a password set before the address was proven removed by the
 * proof. Database and JWT sessions, on the memory adapter.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectSameTime } from '../support/fastest.js'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { AuthConfig } from '../../src/core/types.js'
import Password, { type PasswordEmail, type PasswordOptions } from '../../src/providers/password.js'
import { hashPassword } from '../../src/server/features/password/hash.js'
import { Jar } from '../support/jar.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import { startRangeServer, type RangeServer } from '../support/range-server.js'
import { partsOf, startSmtpSink } from '../support/smtp-sink.js'
import { lastLink, testServer } from '../support/server.js'
import { secretOf, totp } from '../support/totp.js'

const asJson = { 'x-auth-return-redirect': '1' }
const breachedPassword = 'correct horse battery'
let range: RangeServer

beforeAll(async () => {
  range = await startRangeServer({ breached: { [breachedPassword]: 1234 } })
})
afterAll(() => range.close())

function server(strategy: 'database' | 'jwt' = 'database', options: PasswordOptions = {}, config: Partial<AuthConfig> = {}) {
  const mail: PasswordEmail[] = []
  const events: string[] = []
  const store = MemoryAdapter()
  const made = testServer({
    strategy,
    adapter: store,
    extraProviders: [Password({ sendEmail: (m) => void mail.push(m), breached: { endpoint: range.endpoint }, ...options })],
    events: {
      passwordChanged: ({ user }) => void events.push(`changed ${user.email}`),
      passwordReset: ({ user }) => void events.push(`reset ${user.email}`),
    },
    ...config,
  })
  return { ...made, mail, events, store }
}

type Made = ReturnType<typeof server>
const post = async (jar: Jar, path: string, fields: Record<string, string>) => jar.postForm(`/auth/password/${path}`, { csrfToken: await jar.csrf(), ...fields }, asJson)
const signIn = async (jar: Jar, email: string, password: string) => jar.postForm('/auth/callback/password', { csrfToken: await jar.csrf(), email, password }, asJson)
const lastMail = (made: Made, kind: PasswordEmail['kind']) => made.mail.filter((m) => m.kind === kind).at(-1)

/** Signs up `email` and confirms it with the emailed code; answers a signed-in jar. */
async function account(made: Made, email = 'ada@example.com', password = 'a long passphrase') {
  const jar = new Jar(made.handler)
  expect((await post(jar, 'sign-up', { email, password, name: 'Ada' })).status).toBe(200)
  expect((await post(jar, 'verify', { email, code: lastMail(made, 'verify-email')!.code! })).status).toBe(200)
  expect(await (await signIn(jar, email, password)).json()).toEqual({ url: 'http://localhost:3000/' })
  return jar
}

for (const strategy of ['database', 'jwt'] as const) {
  describe(`passwords (${strategy} sessions)`, () => {
    it('sign-up, then sign-in is refused until the address is confirmed; the code confirms it; amr pwd', async () => {
      const made = server(strategy)
      const jar = new Jar(made.handler)
      const res = await post(jar, 'sign-up', { email: 'Ada@Example.com ', password: 'a long passphrase', name: 'Ada' })
      expect(await res.json()).toEqual({ ok: true })
      const sent = lastMail(made, 'verify-email')!
      expect(sent.to).toBe('ada@example.com')
      expect(sent.code).toMatch(/^\d{6}$/)
      expect(sent.url).toMatch(/^http:\/\/localhost:3000\/auth\/password\/verify\?email=ada%40example.com&token=/)
      const early = await signIn(jar, 'ada@example.com', 'a long passphrase')
      expect(early.status).toBe(403)
      expect(await early.json()).toMatchObject({ error: 'EmailNotVerified' })
      expect(await jar.session()).toBeNull()
      expect(await (await post(jar, 'verify', { email: 'ada@example.com', code: '000000' })).json()).toMatchObject({ error: 'InvalidCode' })
      expect((await post(jar, 'verify', { email: 'ada@example.com', code: sent.code! })).status).toBe(200)
      expect((await signIn(jar, 'ada@example.com', 'a long passphrase')).status).toBe(200)
      const session = await jar.session()
      expect(session.user).toMatchObject({ email: 'ada@example.com', name: 'Ada' })
      expect(session.amr).toEqual(['pwd'])
      expect((await made.store.getUserByEmail('ada@example.com'))!.emailVerified).toBeInstanceOf(Date)
      // The hash is in the store, and in no answer, log line or user object.
      const hash = (await made.store.getPasswordHash!((await made.store.getUserByEmail('ada@example.com'))!.id))!
      expect(hash).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$/)
      const seen = [JSON.stringify(session), JSON.stringify(await made.store.getUserByEmail('ada@example.com')), made.logs.join('\n'), JSON.stringify(made.mail)]
      for (const text of seen) {
        expect(text).not.toContain(hash.split('$')[4])
        expect(text).not.toContain('a long passphrase')
      }
    })

    it('a wrong password and an unknown address are the same CredentialsSignin', async () => {
      const made = server(strategy)
      await account(made)
      const answers = [await signIn(new Jar(made.handler), 'ada@example.com', 'not the passphrase'), await signIn(new Jar(made.handler), 'nobody@example.com', 'a long passphrase')]
      for (const res of answers) {
        expect(res.status).toBe(401)
        expect(await res.json()).toEqual({ error: 'CredentialsSignin', url: expect.stringContaining('error=CredentialsSignin') })
      }
    })

    it('forgot, then reset by code: the old password is refused, the new one works, every session ended', async () => {
      const made = server(strategy)
      const before = await account(made)
      const other = new Jar(made.handler)
      expect(await (await post(other, 'forgot', { email: 'ada@example.com' })).json()).toEqual({ ok: true })
      // The email goes after the answer (its time would tell the address has an account).
      await made.handler.settled()
      const sent = lastMail(made, 'reset-password')!
      expect(sent.code).toMatch(/^\d{6}$/)
      expect(await (await post(other, 'reset', { email: 'ada@example.com', code: sent.code!, password: 'short' })).json()).toMatchObject({ error: 'PasswordTooShort' })
      expect((await post(other, 'reset', { email: 'ada@example.com', code: sent.code!, password: 'a new passphrase' })).status).toBe(200)
      expect(made.events).toContain('reset ada@example.com')
      expect(lastMail(made, 'password-changed')!.to).toBe('ada@example.com')
      // The code is spent.
      expect(await (await post(other, 'reset', { email: 'ada@example.com', code: sent.code!, password: 'another passphrase' })).json()).toMatchObject({ error: 'InvalidCode' })
      expect((await signIn(new Jar(made.handler), 'ada@example.com', 'a long passphrase')).status).toBe(401)
      expect((await signIn(new Jar(made.handler), 'ada@example.com', 'a new passphrase')).status).toBe(200)
      // A database session signed in before the reset is over; a JWT lives in its cookie (docs/passwords.md).
      if (strategy === 'database') expect(await before.session()).toBeNull()
    })

    it('change: a fresh session and the current password; other sessions end, this one stays', async () => {
      const made = server(strategy)
      const jar = await account(made)
      const elsewhere = new Jar(made.handler)
      await signIn(elsewhere, 'ada@example.com', 'a long passphrase')
      const set = async (fields: Record<string, string>) => jar.postForm('/auth/password', { csrfToken: await jar.csrf(), action: 'set', ...fields })
      expect(await (await jar.get('/auth/password')).json()).toEqual({ hasPassword: true })
      expect((await set({ password: 'a new passphrase', currentPassword: 'wrong' })).status).toBe(401)
      expect(await (await set({ password: 'a new passphrase', currentPassword: 'a long passphrase' })).json()).toEqual({ hasPassword: true })
      expect(made.events).toEqual(['changed ada@example.com'])
      expect((await jar.session()).user.email).toBe('ada@example.com')
      if (strategy === 'database') expect(await elsewhere.session()).toBeNull()
      made.clock.now += 2 * 3600_000
      const stale = await set({ password: 'yet another one', currentPassword: 'a new passphrase' })
      expect(await stale.json()).toMatchObject({ error: 'SessionNotFresh' })
      expect((await signIn(new Jar(made.handler), 'ada@example.com', 'a new passphrase')).status).toBe(200)
    })
  })
}

describe('passwords: what an attacker meets', () => {
  it('sign-up for an address with an account answers the same and emails its owner; nothing changes', async () => {
    const made = server()
    await account(made)
    const fresh = await post(new Jar(made.handler), 'sign-up', { email: 'new@example.com', password: 'a long passphrase' })
    const taken = await post(new Jar(made.handler), 'sign-up', { email: 'ada@example.com', password: 'an attacker passphrase' })
    expect([fresh.status, taken.status]).toEqual([200, 200])
    expect([await fresh.json(), await taken.json()]).toEqual([{ ok: true }, { ok: true }])
    expect(lastMail(made, 'account-exists')).toMatchObject({ to: 'ada@example.com', code: expect.stringMatching(/^\d{6}$/) })
    expect((await signIn(new Jar(made.handler), 'ada@example.com', 'an attacker passphrase')).status).toBe(401)
    expect((await signIn(new Jar(made.handler), 'ada@example.com', 'a long passphrase')).status).toBe(200)
  })

  it('sign-in, sign-up and forgot take about as long for a known as for an unknown address', async () => {
    // Rate limits off: this sends more than an address may in an hour.
    const made = server('database', {}, { rateLimit: false })
    await account(made)
    const median = async (run: (i: number) => Promise<Response>) => {
      const times: number[] = []
      for (let i = 0; i < 7; i++) {
        const start = performance.now()
        await run(i)
        times.push(performance.now() - start)
      }
      return times.sort((a, b) => a - b)[3]!
    }
    const jar = new Jar(made.handler)
    await jar.csrf()
    const pairs = [
      [await median(() => signIn(jar, 'ada@example.com', 'wrong passphrase')), await median(() => signIn(jar, 'nobody@example.com', 'wrong passphrase'))],
      [await median(() => post(jar, 'sign-up', { email: 'ada@example.com', password: 'a long passphrase' })), await median((i) => post(jar, 'sign-up', { email: `new${i}@example.com`, password: 'a long passphrase' }))],
    ]
    // Each side spends one scrypt (about 100 ms here); without the stand-in one side takes about
    // 1 ms, a ratio near 100. The bounds leave room for a loaded machine (a parallel suite).
    for (const [known, unknown] of pairs) {
      expect(known! / unknown!).toBeGreaterThan(0.25)
      expect(known! / unknown!).toBeLessThan(4)
    }
    const forgot = [await post(jar, 'forgot', { email: 'ada@example.com' }), await post(jar, 'forgot', { email: 'nobody@example.com' })]
    expect(forgot.map((r) => r.status)).toEqual([200, 200])
    expect(await Promise.all(forgot.map((r) => r.json()))).toEqual([{ ok: true }, { ok: true }])
  }, 120_000) // 28 scrypts in a row: seconds alone, more while the other http files share both cores

  it("an email's link and code are one secret: once either confirms or resets, the other is refused", async () => {
    const made = server()
    const email = 'ada@example.com'
    const tokenOf = (kind: PasswordEmail['kind']) => new URL(lastMail(made, kind)!.url!).searchParams.get('token')!
    // Sign-up: the link confirms, then its code is refused.
    const jar = new Jar(made.handler)
    await post(jar, 'sign-up', { email, password: 'a long passphrase' })
    const verifyCode = lastMail(made, 'verify-email')!.code!
    expect((await post(jar, 'verify', { email, token: tokenOf('verify-email') })).status).toBe(200)
    expect(await (await post(jar, 'verify', { email, code: verifyCode })).json()).toMatchObject({ error: 'InvalidCode' })
    // Reset by the link, then its code: refused, the password stays the link's.
    await post(jar, 'forgot', { email })
    await made.handler.settled()
    const first = lastMail(made, 'reset-password')!
    expect((await post(jar, 'reset', { email, token: tokenOf('reset-password'), password: 'the first new one' })).status).toBe(200)
    expect(await (await post(jar, 'reset', { email, code: first.code!, password: 'an attacker passphrase' })).json()).toMatchObject({ error: 'InvalidCode' })
    // Reset by the code, then its link: refused.
    await post(jar, 'forgot', { email })
    await made.handler.settled()
    const second = lastMail(made, 'reset-password')!
    expect((await post(jar, 'reset', { email, code: second.code!, password: 'the second new one' })).status).toBe(200)
    expect(await (await post(jar, 'reset', { email, token: tokenOf('reset-password'), password: 'an attacker passphrase' })).json()).toMatchObject({ error: 'InvalidCode' })
    expect((await signIn(new Jar(made.handler), email, 'an attacker passphrase')).status).toBe(401)
    expect((await signIn(new Jar(made.handler), email, 'the second new one')).status).toBe(200)
  })

  it('a breached password is refused at sign-up, and only five hex digits of its SHA-1 leave the server', async () => {
    const made = server()
    const seen = range.requests.length
    const res = await post(new Jar(made.handler), 'sign-up', { email: 'bea@example.com', password: breachedPassword })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'PasswordBreached' })
    expect(await made.store.getUserByEmail('bea@example.com')).toBeNull()
    const asked = range.requests.slice(seen)
    expect(asked).toHaveLength(1)
    expect(asked[0]!.path).toMatch(/^\/range\/[0-9A-F]{5}$/)
    expect(asked[0]!.padding).toBe(true)
  })

  it('with the range server down, sign-up goes on and a warning is logged (onError allow)', async () => {
    const made = server()
    range.mode = 'error'
    try {
      expect((await post(new Jar(made.handler), 'sign-up', { email: 'cy@example.com', password: 'a long passphrase' })).status).toBe(200)
    } finally {
      range.mode = 'ok'
    }
    expect(made.logs).toContain('warn password-breach-check-unreachable')
  })

  it('a hash made with older parameters is made again at the next sign-in', async () => {
    const made = server()
    await account(made)
    const user = (await made.store.getUserByEmail('ada@example.com'))!
    await made.store.setPasswordHash!(user.id, await hashPassword('a long passphrase', { ln: 10, r: 8, p: 1 }))
    expect((await signIn(new Jar(made.handler), 'ada@example.com', 'a long passphrase')).status).toBe(200)
    expect(await made.store.getPasswordHash!(user.id)).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$/)
  })

  it('a password set before the address was proven goes when its owner proves it another way (an email link)', async () => {
    const made = server()
    // The attacker signs up with Ada's address; it stays unconfirmed.
    await post(new Jar(made.handler), 'sign-up', { email: 'ada@example.com', password: 'the attacker passphrase' })
    // Ada signs in with an email link: the address is hers, the attacker's password is gone.
    const ada = new Jar(made.handler)
    await ada.postForm('/auth/signin/email', { csrfToken: await ada.csrf(), email: 'ada@example.com' })
    await ada.get(lastLink(made.outbox))
    expect((await ada.session()).user.email).toBe('ada@example.com')
    const user = (await made.store.getUserByEmail('ada@example.com'))!
    expect(await made.store.getPasswordHash!(user.id)).toBeNull()
    expect((await signIn(new Jar(made.handler), 'ada@example.com', 'the attacker passphrase')).status).toBe(401)
    // Signed in that way and fresh, Ada may set a first password without a current one.
    const set = await ada.postForm('/auth/password', { csrfToken: await ada.csrf(), action: 'set', password: 'ada own passphrase' })
    expect(await set.json()).toEqual({ hasPassword: true })
    expect((await signIn(new Jar(made.handler), 'ada@example.com', 'ada own passphrase')).status).toBe(200)
  })

  it('the emailed link opens a page with a button: opening it confirms nothing; the button does', async () => {
    const made = server()
    const jar = new Jar(made.handler)
    await post(jar, 'sign-up', { email: 'dee@example.com', password: 'a long passphrase' })
    const url = new URL(lastMail(made, 'verify-email')!.url!)
    const page = await jar.get(url.pathname + url.search)
    expect(page.status).toBe(200)
    const text = await page.text()
    expect(text).toContain('Confirm my address')
    expect((await made.store.getUserByEmail('dee@example.com'))!.emailVerified).toBeNull()
    const form = await jar.postForm('/auth/password/verify', { csrfToken: await jar.csrf(), email: 'dee@example.com', token: url.searchParams.get('token')! }, { accept: 'text/html' })
    expect(form.status).toBe(302)
    expect(form.headers.get('location')).toBe('http://localhost:3000/auth/signin?notice=email-verified')
    expect((await made.store.getUserByEmail('dee@example.com'))!.emailVerified).toBeInstanceOf(Date)
  })

  it('bad input: a clear 4xx, nothing created', async () => {
    const made = server()
    const jar = new Jar(made.handler)
    const token = await jar.csrf()
    const answers = [
      [await jar.postJson('/auth/password/sign-up', { csrfToken: token, email: 'not an address', password: 'a long passphrase' }), 'InvalidRequest'],
      [await jar.postJson('/auth/password/sign-up', { csrfToken: token, email: 'eve@example.com', password: 'short' }), 'PasswordTooShort'],
      [await jar.postJson('/auth/password/sign-up', { csrfToken: token, email: 'eve@example.com', password: 'x'.repeat(200) }), 'PasswordTooLong'],
      [await jar.postJson('/auth/password/sign-up', { csrfToken: token, email: 'eve@example.com', password: { $ne: '' } }), 'InvalidRequest'],
      [await jar.postJson('/auth/password/other', { csrfToken: token }), 'UnknownAction'],
      [await jar.postJson('/auth/password/sign-up', { email: 'eve@example.com', password: 'a long passphrase' }), 'MissingCSRF'],
    ] as const
    for (const [res, error] of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
      const body = (await res.json()) as { error: string; message: string }
      expect(body.error).toBe(error)
      expect(body.message).not.toMatch(/at \w+ \(|\.ts:\d+/)
    }
    expect(await made.store.getUserByEmail('eve@example.com')).toBeNull()
  })

  it('without sendEmail, the Nodemailer provider delivers the emails through its SMTP server, with the brand; without either, start-up says what to set', async () => {
    const sink = await startSmtpSink()
    try {
      const made = testServer({
        adapter: MemoryAdapter(),
        theme: { name: 'Acme "Notes" <beta>', brandColor: '#0a7f5a' },
        extraProviders: [
          Nodemailer({ server: { host: '127.0.0.1', port: sink.port, secure: false, ignoreTLS: true }, from: 'Latchkey <no-reply@app.example.com>' }),
          Password({ breached: false }),
        ],
      })
      expect((await post(new Jar(made.handler), 'sign-up', { email: 'fay@example.com', password: 'a long passphrase' })).status).toBe(200)
      await made.handler.settled()
      const mail = sink.mails.at(-1)!
      expect(mail.to).toEqual(['fay@example.com'])
      const { subject, text, html } = partsOf(mail)
      expect(subject).toBe('Confirm your email address for Acme "Notes" <beta>')
      const [url] = /http:\/\/localhost:3000\/auth\/password\/verify\?\S+/.exec(text)!
      const code = /enter this code where you asked:\n(\d{6})\n/.exec(text)![1]
      expect(sink.codeFor('fay@example.com')).toBe(code)
      expect(text.split(url)).toHaveLength(2)
      expect(text).toMatch(/^Acme "Notes" <beta>\n\n/)
      expect(html.split(`href="${url.replaceAll('&', '&#38;')}"`)).toHaveLength(2)
      expect(html.split('href=')).toHaveLength(2)
      expect(html.split(code)).toHaveLength(2)
      expect(html).toContain('>Acme &#34;Notes&#34; &#60;beta&#62;</h1>')
      expect(html).toContain('background-color:#0a7f5a;')
    } finally {
      await sink.close()
    }
    expect(() => testServer({ adapter: MemoryAdapter(), extraProviders: [Password()] })).toThrow(/pass it server and from \(SMTP through nodemailer\), or sendEmail/)
  })

  it('GET /providers names it a credentials provider with its length rules', async () => {
    const made = server()
    const providers = await (await new Jar(made.handler).get('/auth/providers')).json()
    expect(providers.password).toMatchObject({ id: 'password', type: 'credentials', password: { minLength: 8, maxLength: 128 } })
  })
})

describe('passwords: what an attacker meets after the fact (issue 41)', () => {

  const senders = {
    // An SMTP round trip: about 150 ms before the server has the message.
    smtp: (mail: PasswordEmail[]) => async (m: PasswordEmail) => {
      await new Promise((done) => setTimeout(done, 150))
      mail.push(m)
    },
    // A sender that writes the message to a file: a few milliseconds.
    file: (mail: PasswordEmail[], dir: string) => async (m: PasswordEmail) => {
      await writeFile(join(dir, `${mail.length}-${m.kind}.json`), JSON.stringify(m))
      mail.push(m)
    },
  }

  for (const kind of ['smtp', 'file'] as const) {
    it(`forgot and verify-again answer as fast for a known as for an unknown address (${kind} sender); the known one is still emailed`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'latchkey-mail-'))
      try {
        const mail: PasswordEmail[] = []
        // Rate limits off: this sends more than an address may in an hour.
        const made = server('database', { sendEmail: senders[kind](mail, dir) }, { rateLimit: false })
        const jar = new Jar(made.handler)
        // Ada has a confirmed account with a password (forgot); Bo signed up and has not confirmed (verify-again).
        await post(jar, 'sign-up', { email: 'ada@example.com', password: 'a long passphrase' })
        await post(jar, 'verify', { email: 'ada@example.com', code: mail.at(-1)!.code! })
        await post(jar, 'sign-up', { email: 'bo@example.com', password: 'a long passphrase' })
        mail.length = 0
        const csrfToken = await jar.csrf()
        const ask = (path: string, email: string) => () => jar.postForm(`/auth/password/${path}`, { csrfToken, email }, asJson)
        const pairs = 31
        // Before the fix the known address waited for its email: a ratio near 250 with the SMTP
        // sender, above 3 with the file one. The bounds leave room for a loaded machine.
        const forgot = await expectSameTime(() => made.handler.settled(), pairs, ask('forgot', 'ada@example.com'), ask('forgot', 'nobody@example.com'))
        const again = await expectSameTime(() => made.handler.settled(), pairs, ask('verify-again', 'bo@example.com'), ask('verify-again', 'nobody@example.com'))
        // Every known address's email went (settled: each was waited for), and none to the unknown one.
        expect(mail.filter((m) => m.kind === 'reset-password' && m.to === 'ada@example.com')).toHaveLength(forgot.asked)
        expect(mail.filter((m) => m.kind === 'verify-email' && m.to === 'bo@example.com')).toHaveLength(again.asked)
        expect(mail).toHaveLength(forgot.asked + again.asked)
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    })
  }

  it('a sender that fails after the answer: the answer is the same, and the failure is logged', async () => {
    const made = server('database', { sendEmail: async () => Promise.reject(new Error('SMTP 421 try later')) })
    await post(new Jar(made.handler), 'sign-up', { email: 'ada@example.com', password: 'a long passphrase' })
    made.logs.length = 0
    const res = await post(new Jar(made.handler), 'verify-again', { email: 'ada@example.com' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true })
    await made.handler.settled()
    expect(made.logs).toEqual(['error EmailSignin: The confirmation email (POST /password/verify-again) failed after the answer SMTP 421 try later'])
  })

  it('a password reset forgets every trusted device: a copied device cookie and the new password ask for the second factor', async () => {
    const made = server('database', {}, { mfa: { issuer: 'Latchkey Test' } })
    const owner = await account(made)
    const mfa = async (jar: Jar, fields: Record<string, string>) => jar.postForm('/auth/mfa', { csrfToken: await jar.csrf(), ...fields })
    const started = (await (await mfa(owner, { action: 'enroll' })).json()) as { factor: { id: string }; uri: string }
    const secret = secretOf(started.uri)
    expect((await mfa(owner, { action: 'confirm', id: started.factor.id, code: totp(secret, made.clock.now) })).status).toBe(200)
    made.clock.now += 30_000
    // The owner trusts a browser; a thief copies its device cookie.
    const device = new Jar(made.handler)
    expect(await (await signIn(device, 'ada@example.com', 'a long passphrase')).json()).toMatchObject({ error: 'SecondFactorRequired' })
    const verified = await device.postForm('/auth/mfa/verify', { csrfToken: await device.csrf(), code: totp(secret, made.clock.now), trustDevice: 'true' }, asJson)
    expect(verified.status).toBe(200)
    const thief = new Jar(made.handler)
    thief.cookies.set('latchkey.mfa-device', device.cookies.get('latchkey.mfa-device')!)
    // The copy works while the password is the old one: the cookie and the password, amr pwd.
    expect((await signIn(thief, 'ada@example.com', 'a long passphrase')).status).toBe(200)
    expect((await thief.session()).amr).toEqual(['pwd'])
    thief.cookies.delete('latchkey.session-token')
    // The owner resets the password; the thief learns the new one too.
    expect((await post(new Jar(made.handler), 'forgot', { email: 'ada@example.com' })).status).toBe(200)
    await made.handler.settled()
    expect((await post(new Jar(made.handler), 'reset', { email: 'ada@example.com', code: lastMail(made, 'reset-password')!.code!, password: 'a new passphrase' })).status).toBe(200)
    const after = await signIn(thief, 'ada@example.com', 'a new passphrase')
    expect(await after.json()).toMatchObject({ error: 'SecondFactorRequired' })
    expect(await thief.session()).toBeNull()
    // The owner's own trusted browser asks again too, and no device record is left.
    expect(await (await signIn(device, 'ada@example.com', 'a new passphrase')).json()).toMatchObject({ error: 'SecondFactorRequired' })
    const user = (await made.store.getUserByEmail('ada@example.com'))!
    expect((await made.store.listFactorsByUserId!(user.id)).map((f) => f.type)).toEqual(['totp'])
  })

  it('current-password guesses are limited as sign-in guesses: the 11th from one session is a 429, the right one too, until the window passes', async () => {
    const made = server()
    const jar = await account(made)
    const set = async (fields: Record<string, string>) => jar.postForm('/auth/password', { csrfToken: await jar.csrf(), action: 'set', ...fields })
    // The credentials rules: 10 failures per account and address in 15 minutes.
    for (let i = 0; i < 10; i++) expect(await (await set({ password: 'a new passphrase', currentPassword: `guess ${i}` })).json()).toMatchObject({ error: 'CredentialsSignin' })
    const refused = await set({ password: 'a new passphrase', currentPassword: 'guess 10' })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({ error: 'RateLimited' })
    const right = await set({ password: 'a new passphrase', currentPassword: 'a long passphrase' })
    expect(right.status).toBe(429)
    expect(made.events).toEqual([])
    // They are guesses at the sign-in's password: the sign-in counts them too.
    expect((await signIn(new Jar(made.handler), 'ada@example.com', 'a long passphrase')).status).toBe(429)
    made.clock.now += 15 * 60_000
    // Fifteen minutes on, the session is still fresh (default freshAge one hour) and the right one works.
    expect(await (await set({ password: 'a new passphrase', currentPassword: 'a long passphrase' })).json()).toEqual({ hasPassword: true })
    expect(made.events).toEqual(['changed ada@example.com'])
  })
})
