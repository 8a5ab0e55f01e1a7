/**
 * Phone-number sign-in (src/plugins/phone) over HTTP, on the memory adapter and on latchkey's SQL
 * adapter on PostgreSQL (DATABASE_URL): sign-up and sign-in with an SMS code, the code's tries and
 * lifetime, rate limits per number and per client, CSRF, bad input, enumeration by answer and by
 * time, the plugin's registered error code, the number on the user, and GET /providers.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { expectSameTime } from '../support/fastest.js'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter, AuthConfig } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from 'latchkey/server'
import { languages } from '../../src/locales/index.js'
import { Phone, phoneNumberOf, phonePlugin, isPhoneOnlyEmail, type PhoneOptions } from 'latchkey/plugins/phone'
import { Jar } from '../support/jar.js'
import { testSecret } from '../support/server.js'
import { pluginStores } from '../support/plugin-stores.js'

const closers: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const close of closers) await close()
})

const stores = pluginStores<Adapter>([], 'phone sign-in', 'test/plugins/phone.test.ts', closers)

const asJson = { 'x-auth-return-redirect': '1' }
let seq = 0
/** A number no other test uses, as E.164. */
const newNumber = () => `+1415555${String(++seq).padStart(4, '0')}`
/** A client address no other test uses. */
const newClient = () => `203.0.113.${++seq % 250}`

interface Sms {
  to: string
  text: string
}

function server(adapter: Adapter, { phone = {}, config = {} }: { phone?: Partial<PhoneOptions>; config?: Partial<AuthConfig> } = {}) {
  const clock = { now: Date.parse('2026-06-01T00:00:00Z') }
  const texts: Sms[] = []
  const logs: string[] = []
  const handler = Latchkey({
    secret: testSecret,
    adapter,
    session: { strategy: 'database' },
    now: () => clock.now,
    rateLimit: { trustProxy: true },
    logger: { error: (e) => logs.push(`error ${e.name}: ${e.message}`), warn: (w) => logs.push(`warn ${w}`), debug: () => {} },
    providers: [
      Phone({ sendSms: async (to, text) => void texts.push({ to, text }), defaultCountry: 'US', ...phone }),
      Credentials({ credentials: { username: {} }, authorize: async ({ username }) => (username === 'ada' ? { id: 'user-ada', email: 'ada@example.com' } : null) }),
    ],
    ...config,
  })
  /** The code of the last text to `to`, once the texts sent after the answers are out. */
  const codeFor = async (to: string) => {
    await handler.settled()
    return texts.filter((t) => t.to === to).at(-1)?.text.match(/^(\d{6}) /)?.[1]
  }
  return { handler, texts, logs, clock, codeFor }
}

type Server = ReturnType<typeof server>

/** Step 1: POST /signin/phone, as a script asks (JSON answer). */
async function ask(jar: Jar, phone: string, client: string, extra: Record<string, string> = {}) {
  const res = await jar.postForm('/auth/signin/phone', { csrfToken: await jar.csrf(), phone, callbackUrl: '/home', ...extra }, { ...asJson, 'x-forwarded-for': client })
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { url?: string; error?: string; message?: string } }
}

/** Step 2: POST /callback/phone with the code. */
async function enter(jar: Jar, phone: string, code: string, client: string, extra: Record<string, string> = {}) {
  const res = await jar.postForm('/auth/callback/phone', { csrfToken: await jar.csrf(), phone, code, callbackUrl: '/home', ...extra }, { ...asJson, 'x-forwarded-for': client })
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { url?: string; error?: string; message?: string } }
}

const errorOf = (reply: { body: { url?: string; error?: string } }) => reply.body.error ?? new URL(reply.body.url!).searchParams.get('error')
const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000')

/** Signs `jar` up or in with `phone`: answers the session. */
async function signIn(made: Server, jar: Jar, phone: string, client = newClient()) {
  expect((await ask(jar, phone, client)).status).toBe(200)
  await made.handler.settled()
  const reply = await enter(jar, phone, made.texts.at(-1)!.text.slice(0, 6), client)
  expect(reply).toEqual({ status: 200, retryAfter: null, body: { url: 'http://localhost:3000/home' } })
  return jar.session()
}

for (const [name, open] of Object.entries(stores)) {
  describe(`phone sign-in (${name})`, () => {
    it('signs up a new number: the code goes by SMS in E.164, and the number becomes the user\'s account', async () => {
      const adapter = await open()
      const made = server(adapter)
      const phone = newNumber()
      const jar = new Jar(made.handler)
      const client = newClient()
      const asked = await ask(jar, phone, client)
      expect(asked).toEqual({ status: 200, retryAfter: null, body: { url: 'http://localhost:3000/auth/signin?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2Fhome&sent=phone' } })
      const code = await made.codeFor(phone)
      expect(code).toMatch(/^\d{6}$/)
      const [sms] = made.texts
      expect(sms.to).toBe(phone)
      // The WebOTP line: a phone's browser offers the code to this site alone.
      expect(sms.text).toBe(`${code} is your sign-in code for localhost:3000. It works for 10 minutes.\n\n@localhost:3000 #${code}`)
      // Stored only as a hash: the plain code is no key to the store.
      expect(await adapter.useVerificationCode!({ identifier: `sms.phone:${phone}`, codes: [code!], maxAttempts: 5 })).toEqual({ result: 'wrong', attemptsLeft: 4 })

      expect(await enter(jar, phone, code!, client)).toEqual({ status: 200, retryAfter: null, body: { url: 'http://localhost:3000/home' } })
      const session = await jar.session()
      const user = await adapter.getUserByAccount!({ provider: 'phone', providerAccountId: phone })
      expect(session.user.id).toBe(user!.id)
      expect(session.amr).toEqual(['sms'])
      // No address: a placeholder nobody can receive mail at or prove, and never marked proven.
      expect(isPhoneOnlyEmail(user!.email)).toBe(true)
      expect(user!.emailVerified).toBeNull()
      expect(await phoneNumberOf(adapter, user!.id)).toBe(phone)
      // The code was used: it signs in nobody else.
      expect(errorOf(await enter(new Jar(made.handler), phone, code!, client))).toBe('InvalidCode')
    })

    it('signs the same user in again, the number typed in another form', async () => {
      const made = server(await open())
      const phone = newNumber()
      const first = await signIn(made, new Jar(made.handler), phone)
      const national = `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`
      const again = await signIn(made, new Jar(made.handler), national)
      expect(again.user.id).toBe(first.user.id)
      // Both texts went to the one E.164 number.
      expect(made.texts.map((t) => t.to)).toEqual([phone, phone])
    })

    it('a wrong code is InvalidCode; five wrong codes burn it, and the right one is then TooManyAttempts', async () => {
      const made = server(await open())
      const phone = newNumber()
      const client = newClient()
      await ask(new Jar(made.handler), phone, client)
      const code = (await made.codeFor(phone))!
      const jar = new Jar(made.handler)
      const answers = []
      for (let i = 0; i < 5; i++) answers.push(errorOf(await enter(jar, phone, wrongFor(code), client)))
      expect(answers).toEqual(['InvalidCode', 'InvalidCode', 'InvalidCode', 'InvalidCode', 'TooManyAttempts'])
      expect(errorOf(await enter(jar, phone, code, client))).toBe('TooManyAttempts')
      expect(await jar.session()).toBeNull()
      // Neither the code nor a guess reached a log.
      expect(made.logs.join('\n')).not.toContain(code)
      // A new code starts a new count.
      await ask(new Jar(made.handler), phone, client)
      expect((await enter(jar, phone, (await made.codeFor(phone))!, client)).status).toBe(200)
    })

    it('a code lives 10 minutes: after that it is CodeExpired', async () => {
      const made = server(await open())
      const phone = newNumber()
      const client = newClient()
      await ask(new Jar(made.handler), phone, client)
      const code = (await made.codeFor(phone))!
      made.clock.now += 10 * 60_000 + 1000
      const jar = new Jar(made.handler)
      expect(errorOf(await enter(jar, phone, code, client))).toBe('CodeExpired')
      expect(await jar.session()).toBeNull()
    })

    it('a code for one number signs in no other, and a new code replaces the old one', async () => {
      const made = server(await open())
      const [phone, other] = [newNumber(), newNumber()]
      const client = newClient()
      const jar = new Jar(made.handler)
      await ask(jar, phone, client)
      const old = (await made.codeFor(phone))!
      expect(errorOf(await enter(jar, other, old, client))).toBe('InvalidCode')
      await ask(jar, phone, client)
      const fresh = (await made.codeFor(phone))!
      if (fresh !== old) expect(errorOf(await enter(jar, phone, old, client))).toBe('InvalidCode')
      expect((await enter(jar, phone, fresh, client)).status).toBe(200)
    })

    it('texts are rate-limited per number (5 in 15 minutes) and per client (10): 429 with Retry-After, and nothing sent', async () => {
      const made = server(await open())
      const phone = newNumber()
      const jar = new Jar(made.handler)
      for (let i = 0; i < 5; i++) expect((await ask(jar, phone, newClient())).status).toBe(200)
      const refused = await ask(jar, phone, newClient())
      expect(refused.status).toBe(429)
      expect(errorOf(refused)).toBe('RateLimited')
      expect(Number(refused.retryAfter)).toBeGreaterThan(0)
      await made.handler.settled()
      expect(made.texts).toHaveLength(5)

      const client = newClient()
      for (let i = 0; i < 10; i++) expect((await ask(jar, newNumber(), client)).status).toBe(200)
      const many = await ask(jar, newNumber(), client)
      expect(many.status).toBe(429)
      expect(Number(many.retryAfter)).toBeGreaterThan(0)
      await made.handler.settled()
      expect(made.texts).toHaveLength(15)
      // The window passes: the number may ask again.
      made.clock.now += 15 * 60_000 + 1000
      expect((await ask(jar, phone, newClient())).status).toBe(200)
    })

    it('code guesses are rate-limited per client and per number, by rules the configuration may replace', async () => {
      const made = server(await open(), {
        config: { rateLimit: { trustProxy: true, rules: { phoneCode: [{ per: 'client', limit: 3, windowSeconds: 600 }, { per: 'account', limit: 4, windowSeconds: 600 }] } } },
      })
      const client = newClient()
      const jar = new Jar(made.handler)
      for (let i = 0; i < 3; i++) expect(errorOf(await enter(jar, newNumber(), '123456', client))).toBe('InvalidCode')
      const byClient = await enter(jar, newNumber(), '123456', client)
      expect(byClient.status).toBe(429)
      expect(Number(byClient.retryAfter)).toBeGreaterThan(0)
      const phone = newNumber()
      await ask(jar, phone, newClient())
      const code = (await made.codeFor(phone))!
      for (let i = 0; i < 4; i++) await enter(jar, phone, wrongFor(code), newClient())
      const byNumber = await enter(jar, phone, code, newClient())
      expect(byNumber.status).toBe(429)
      expect(byNumber.body.error).toBe('RateLimited')
      expect(await jar.session()).toBeNull()
    })

    it('without the CSRF token neither step runs: nothing sent, no code spent, nobody signed in', async () => {
      const made = server(await open())
      const phone = newNumber()
      const client = newClient()
      const jar = new Jar(made.handler)
      const noToken = await jar.postForm('/auth/signin/phone', { phone }, { ...asJson, 'x-forwarded-for': client })
      expect((await noToken.json()).error).toBe('MissingCSRF')
      const forged = await jar.postForm('/auth/signin/phone', { phone, csrfToken: 'forged' }, { ...asJson, 'x-forwarded-for': client })
      expect((await forged.json()).error).toBe('MissingCSRF')
      await made.handler.settled()
      expect(made.texts).toEqual([])

      await ask(jar, phone, client)
      const code = (await made.codeFor(phone))!
      const victim = new Jar(made.handler)
      const crossSite = await victim.postForm('/auth/callback/phone', { phone, code }, { ...asJson, 'x-forwarded-for': client })
      expect((await crossSite.json()).error).toBe('MissingCSRF')
      expect(await victim.session()).toBeNull()
      // The refused post spent nothing: the code still works, once, with the token.
      expect((await enter(jar, phone, code, client)).status).toBe(200)
    })

    it('bad input is a clear 4xx naming what was expected, never a 500, and sends nothing', async () => {
      const made = server(await open())
      const jar = new Jar(made.handler)
      const csrfToken = await jar.csrf()
      const client = newClient()
      const post = async (path: string, body: Record<string, unknown>, json = true) => {
        const res = json
          ? await jar.postJson(path, { csrfToken, ...body }, { ...asJson, 'x-forwarded-for': client })
          : await jar.postForm(path, { csrfToken, ...(body as Record<string, string>) }, { ...asJson, 'x-forwarded-for': client })
        return { status: res.status, body: await res.json() }
      }
      const notANumber = await post('/auth/signin/phone', { phone: 'call me maybe' })
      expect(notANumber.status).toBe(400)
      expect(notANumber.body.error).toBe('InvalidPhoneNumber')
      expect(made.logs.at(-1)).toMatch(/InvalidPhoneNumber: .*E\.164/)
      for (const phone of ['+1 415 555 0100 ext 7', '+1415555', '12', '+999 1234', '0044 20 7946 0958']) {
        expect(await post('/auth/signin/phone', { phone })).toMatchObject({ status: 400, body: { error: 'InvalidPhoneNumber' } })
      }
      for (const body of [{}, { phone: '' }, { phone: '   ' }, { phone: ['+14155550100'] }, { phone: 14155550100 }, { phone: { n: 1 } }, { phone: null }, { phone: '+1 '.padEnd(41, '5') }]) {
        const reply = await post('/auth/signin/phone', body)
        expect(reply.status, JSON.stringify(body)).toBe(400)
        expect(reply.body.error).toBe('InvalidRequest')
        expect(reply.body.message).toContain('E.164')
      }
      const phone = newNumber()
      for (const body of [{ phone }, { phone, code: ['123456'] }, { phone, code: 123456 }, { phone, code: '' }, { phone: ['x'], code: '123456' }, { phone: 'nope', code: '123456' }]) {
        const reply = await post('/auth/callback/phone', body)
        expect(reply.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400)
        expect(reply.status, JSON.stringify(body)).toBeLessThan(500)
      }
      const huge = await post('/auth/signin/phone', { phone: '1'.repeat(70_000) })
      expect(huge.status).toBe(413)
      // The callback takes POST only.
      expect((await jar.get('/auth/callback/phone?phone=%2B14155550100&code=123456', asJson)).status).toBe(405)
      await made.handler.settled()
      expect(made.texts).toEqual([])
      expect(made.logs.filter((l) => l.startsWith('error'))).toEqual([])
    })

    it('step 1 answers a number with an account as one without: the same status, body and cookies', async () => {
      const made = server(await open())
      const known = newNumber()
      await signIn(made, new Jar(made.handler), known)
      const unknown = newNumber()
      const answer = async (phone: string) => {
        const jar = new Jar(made.handler)
        const csrfToken = await jar.csrf()
        const res = await jar.postForm('/auth/signin/phone', { csrfToken, phone, callbackUrl: '/home' }, { ...asJson, 'x-forwarded-for': newClient() })
        return { status: res.status, cookies: res.headers.getSetCookie().map((c) => c.split('=')[0]), body: await res.text() }
      }
      expect(await answer(known)).toEqual(await answer(unknown))
      // A wrong code, too.
      const client = newClient()
      expect(await enter(new Jar(made.handler), known, '000001', client)).toEqual(await enter(new Jar(made.handler), unknown, '000001', client))
    })

    it('a registered error code reaches the browser; the same code unregistered reads Configuration', async () => {
      const registered = server(await open())
      expect(await ask(new Jar(registered.handler), 'not a number', newClient())).toMatchObject({ status: 400, body: { error: 'InvalidPhoneNumber' } })
      const unregistered = server(await open(), { phone: { id: 'phone' } })
      const provider = { ...Phone({ sendSms: async () => {} }), plugin: { ...phonePlugin, errorCodes: [] } }
      const bare = Latchkey({ secret: testSecret, adapter: await open(), logger: { error: () => {}, warn: () => {}, debug: () => {} }, providers: [provider] })
      const reply = await ask(new Jar(bare), 'not a number', newClient())
      expect(reply).toMatchObject({ status: 500, body: { error: 'Configuration' } })
      expect(unregistered.texts).toEqual([])
    })

    it('the verified number is on the user: by the session callback (database) and by the jwt callback (JWT)', async () => {
      const adapter = await open()
      const database = server(adapter, {
        config: { callbacks: { session: async ({ session, user }) => ({ ...session, user: { ...session.user, phone: await phoneNumberOf(adapter, user!.id) } }) } },
      })
      const phone = newNumber()
      expect((await signIn(database, new Jar(database.handler), phone)).user.phone).toBe(phone)

      const jwt = server(adapter, {
        config: {
          session: { strategy: 'jwt' },
          callbacks: {
            jwt: ({ token, account }) => (account?.type === ('phone' as string) ? { ...token, phone: account.providerAccountId } : token),
            session: ({ session, token }) => ({ ...session, user: { ...session.user, phone: token!.phone } }),
          },
        },
      })
      const other = newNumber()
      expect((await signIn(jwt, new Jar(jwt.handler), other)).user.phone).toBe(other)
    })

    it('a signed-in user who enters a code adds the number to their own account', async () => {
      const adapter = await open()
      const made = server(adapter)
      const jar = new Jar(made.handler)
      await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada' })
      expect((await jar.session()).user.id).toBe('user-ada')
      const phone = newNumber()
      expect((await signIn(made, jar, phone)).user.id).toBe('user-ada')
      expect((await adapter.getUserByAccount!({ provider: 'phone', providerAccountId: phone }))!.id).toBe('user-ada')
      // Signed out, the number signs in as Ada.
      expect((await signIn(made, new Jar(made.handler), phone)).user.id).toBe('user-ada')
    })

    it('"confirm it\'s you" with a number: the signed-in user\'s own number makes the session fresh, another number is refused and links nothing', async () => {
      const adapter = await open()
      const made = server(adapter)
      const jar = new Jar(made.handler)
      const mine = newNumber()
      const me = (await signIn(made, jar, mine)).user.id
      made.clock.now += 2 * 3600_000 // past freshAge: the session is not fresh
      const client = newClient()
      const stranger = newNumber()
      await ask(jar, stranger, client, { confirm: 'true' })
      const refused = await enter(jar, stranger, (await made.codeFor(stranger))!, client, { confirm: 'true' })
      expect(refused.status).toBe(403)
      expect(errorOf(refused)).toBe('AccessDenied')
      expect(await adapter.getUserByAccount!({ provider: 'phone', providerAccountId: stranger })).toBeNull()
      expect((await jar.session()).user.id).toBe(me)
      await ask(jar, mine, client, { confirm: 'true' })
      expect((await enter(jar, mine, (await made.codeFor(mine))!, client, { confirm: 'true' })).status).toBe(200)
      const session = await jar.session()
      expect(session.user.id).toBe(me)
      expect(made.handler.isFresh(session)).toBe(true)
    })

    it('a failing SMS service changes no answer, and is logged', async () => {
      const made = server(await open(), { phone: { sendSms: async () => Promise.reject(new Error('carrier said 503')) } })
      const reply = await ask(new Jar(made.handler), newNumber(), newClient())
      expect(reply.status).toBe(200)
      await made.handler.settled()
      expect(made.logs.filter((l) => l.startsWith('error'))).toEqual(['error SmsSignin: The sign-in code by SMS (POST /signin/phone) failed after the answer'])
    })
  })
}

describe('phone sign-in: what a client is told, and what is refused at start-up', () => {
  it('GET /providers describes the form: its field, the code, and the words', async () => {
    const made = server(MemoryAdapter(), { phone: { words: { send: 'Send me a code' } } })
    const providers = await (await made.handler(new Request('http://localhost:3000/auth/providers'))).json()
    expect(providers.phone).toEqual({
      id: 'phone',
      name: 'Phone',
      type: 'phone',
      signinUrl: 'http://localhost:3000/auth/signin/phone',
      callbackUrl: 'http://localhost:3000/auth/callback/phone',
      code: { length: 6, numeric: true },
      form: {
        fields: [{ name: 'phone', label: 'Phone number', type: 'tel', autocomplete: 'tel' }],
        send: 'Send me a code',
        sent: 'We sent a code to {phone}.',
        codeLabel: 'Code from the text message',
      },
    })
  })

  it('the built-in sign-in page shows both steps, which work without script', async () => {
    const made = server(MemoryAdapter())
    const jar = new Jar(made.handler)
    const page = await (await jar.get('/auth/signin?callbackUrl=%2Fhome')).text()
    expect(page).toContain('action="http://localhost:3000/auth/signin/phone"')
    expect(page).toContain('action="http://localhost:3000/auth/callback/phone"')
    const csrfToken = page.match(/name="csrfToken" value="([^"]+)"/)![1]
    const phone = newNumber()
    const sent = await jar.postForm('/auth/signin/phone', { csrfToken, phone, callbackUrl: 'http://localhost:3000/home' })
    expect(sent.status).toBe(302)
    expect(sent.headers.get('location')).toBe('http://localhost:3000/auth/signin?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2Fhome&sent=phone')
    const done = await jar.postForm('/auth/callback/phone', { csrfToken, phone, code: (await made.codeFor(phone))!, callbackUrl: 'http://localhost:3000/home' })
    expect(done.headers.get('location')).toBe('http://localhost:3000/home')
    expect(await jar.session()).not.toBeNull()
  })

  it("the built-in pages put its error code in words, in the visitor's language; an unknown code reads as Configuration", async () => {
    const jar = new Jar(server(MemoryAdapter()).handler)
    const sentence = async (path: string, lang = 'en') => (await (await jar.get(path, { 'accept-language': lang })).text()).match(/data-error="[^"]*">([^<]*)</)?.[1]
    expect(await sentence('/auth/error?error=InvalidPhoneNumber')).toBe('We cannot send a code to that phone number. Type it with its country code, like +1 415 555 0123.')
    expect(await sentence('/auth/signin?error=InvalidPhoneNumber', 'fr')).toBe("Nous ne pouvons pas envoyer de code à ce numéro. Saisissez-le avec l&#39;indicatif du pays, par exemple +1 415 555 0123.")
    expect(await sentence('/auth/error?error=InvalidPhoneNumber', 'ja')).toContain('国番号')
    const configuration = await sentence('/auth/error?error=Configuration')
    expect(await sentence('/auth/error?error=InvalidFaxNumber')).toBe(configuration)
    // Without the plugin the code is nobody's, so its sentence is not shown.
    const plain = new Jar(Latchkey({ secret: testSecret, providers: [Credentials({ authorize: async () => null })] }))
    expect((await (await plain.get('/auth/error?error=InvalidPhoneNumber')).text())).not.toContain('phone number')
  })

  it('its messages are in every shipped language', () => {
    expect(Object.keys(phonePlugin.messages!).sort()).toEqual([...languages].sort())
  })

  it('refuses a provider without an adapter, without sendSms, or with an unknown defaultCountry', () => {
    const sendSms = async () => {}
    expect(() => Latchkey({ secret: testSecret, providers: [Phone({ sendSms })] })).toThrow(/phone provider "phone" needs an adapter/)
    expect(() => Latchkey({ secret: testSecret, adapter: MemoryAdapter(), providers: [Phone({} as PhoneOptions)] })).toThrow(/needs sendSms/)
    expect(() => Latchkey({ secret: testSecret, adapter: MemoryAdapter(), providers: [Phone({ sendSms, defaultCountry: 'XX' as 'US' })] })).toThrow(/defaultCountry/)
    // Two phone providers share the one plugin: each keys its own codes and accounts.
    expect(() => Latchkey({ secret: testSecret, adapter: MemoryAdapter(), providers: [Phone({ sendSms }), Phone({ sendSms, id: 'work-phone' })] })).not.toThrow()
  })
})

describe('phone sign-in: enumeration by time', () => {

  for (const [name, open] of Object.entries(stores)) {
    it(`step 1 answers as fast for a number with an account as for one without (${name}, an SMS service taking 150 ms)`, async () => {
      const slow = { sendSms: async (to: string, text: string) => void (await new Promise((done) => setTimeout(done, 150)), sent.push({ to, text })) }
      const sent: Sms[] = []
      // Rate limits off: this asks more often than a number may in 15 minutes.
      const made = server(await open(), { phone: slow, config: { rateLimit: false } })
      const known = newNumber()
      const jar = new Jar(made.handler)
      expect((await ask(jar, known, newClient())).status).toBe(200)
      await made.handler.settled()
      expect((await enter(jar, known, sent.at(-1)!.text.slice(0, 6), newClient())).status).toBe(200)
      const csrfToken = await jar.csrf()
      const asking = (phone: () => string) => () => jar.postForm('/auth/signin/phone', { csrfToken, phone: phone() }, asJson)
      const times = await expectSameTime(() => made.handler.settled(), 31, asking(() => known), asking(newNumber))
      console.log(`phone step 1, fastest answer (${name}): known ${times.known.toFixed(2)} ms, unknown ${times.unknown.toFixed(2)} ms`)
      // Every ask was texted, after its answer.
      expect(sent.filter((s) => s.to === known)).toHaveLength(1 + times.asked)
    })
  }
})
