/**
 * One-time codes beside email links, over HTTP: the email carries a code, the code signs in any
 * browser where the address is typed (with the CSRF token), it is stored hashed, lives 10
 * minutes, burns after 5 wrong entries, a new request replaces it, and it never reaches a log or
 * a URL. Options and adapters that cannot keep codes are refused at start-up.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter, SendVerificationRequestParams } from '../../src/core/types.js'
import Email from '../../src/providers/email.js'
import { Latchkey } from '../../src/server/index.js'
import { Jar } from '../support/jar.js'
import { testSecret, testServer, withoutCodeMethods } from '../support/server.js'

const asJson = { 'x-auth-return-redirect': '1' }

async function ask(jar: Jar, email = 'grace@example.com') {
  return jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email, callbackUrl: '/dashboard' }, asJson)
}

/** Types a code on `jar`'s page; answers the JSON reply ({ url } or { url, error }). */
async function enter(jar: Jar, code: string, email = 'grace@example.com') {
  const res = await jar.postForm('/auth/callback/email', { csrfToken: await jar.csrf(), email, code, callbackUrl: '/dashboard' }, asJson)
  return { status: res.status, body: (await res.json()) as { url?: string; error?: string } }
}

const errorOf = (reply: { body: { url?: string; error?: string } }) => reply.body.error ?? new URL(reply.body.url!).searchParams.get('error')

describe('the code in the email', () => {
  it('is 6 digits beside the link, lives 10 minutes, and is stored only as a hash', async () => {
    const { handler, outbox, adapter, clock } = testServer()
    await ask(new Jar(handler))
    const mail = outbox.at(-1)!
    expect(mail.code).toMatch(/^\d{6}$/)
    expect(mail.codeExpires!.getTime()).toBe(clock.now + 10 * 60_000)
    expect(mail.url).not.toContain(mail.code!)
    // The plain code is no key to the store.
    expect(await adapter.useVerificationCode({ identifier: 'grace@example.com', codes: [mail.code!], maxAttempts: 5 })).toEqual({ result: 'wrong', attemptsLeft: 4 })
  })

  it('signs in another browser where the address is typed, once', async () => {
    const { handler, outbox, adapter } = testServer()
    await ask(new Jar(handler))
    const laptop = new Jar(handler)
    const signedIn = await enter(laptop, outbox.at(-1)!.code!)
    expect(signedIn).toEqual({ status: 200, body: { url: 'http://localhost:3000/dashboard' } })
    expect((await laptop.session()).user.email).toBe('grace@example.com')
    expect((await adapter.getUserByEmail('grace@example.com'))!.emailVerified).toBeInstanceOf(Date)
    expect(errorOf(await enter(new Jar(handler), outbox.at(-1)!.code!))).toBe('InvalidCode')
  })

  it('needs the CSRF token: a cross-site post of a code signs nobody in', async () => {
    const { handler, outbox } = testServer()
    await ask(new Jar(handler))
    const victim = new Jar(handler)
    const res = await victim.postForm('/auth/callback/email', { email: 'grace@example.com', code: outbox.at(-1)!.code! }, asJson)
    expect((await res.json()).error).toBe('MissingCSRF')
    expect(await victim.session()).toBeNull()
  })

  // The same rules where the adapter keeps codes itself and where its verification tokens do (Auth.js's adapters).
  const stores = [
    ['its code methods', () => testServer()],
    ['its verification tokens', () => testServer({ adapter: withoutCodeMethods() })],
  ] as const

  for (const [keptIn, server] of stores) {
    it(`five wrong codes burn it: the right one is then TooManyAttempts, and stays so (codes kept in ${keptIn})`, async () => {
      const { handler, outbox, logs } = server()
      await ask(new Jar(handler))
      const code = outbox.at(-1)!.code!
      const wrong = code === '000000' ? '111111' : '000000'
      const jar = new Jar(handler)
      const answers = []
      for (let i = 0; i < 5; i++) answers.push(errorOf(await enter(jar, wrong)))
      expect(answers).toEqual(['InvalidCode', 'InvalidCode', 'InvalidCode', 'InvalidCode', 'TooManyAttempts'])
      expect(errorOf(await enter(jar, code))).toBe('TooManyAttempts')
      expect(errorOf(await enter(jar, code))).toBe('TooManyAttempts')
      expect(await jar.session()).toBeNull()
      // Neither the code nor a guess reached a log.
      expect(logs.join('\n')).not.toContain(code)
      expect(logs.join('\n')).not.toContain(wrong)
    })

    it(`a new request replaces the code: the old one is refused, even with the new one's tries, the new one signs in (codes kept in ${keptIn})`, async () => {
      const { handler, outbox } = server()
      const jar = new Jar(handler)
      await ask(jar)
      const old = outbox.at(-1)!.code!
      await ask(jar)
      const fresh = outbox.at(-1)!.code!
      if (old !== fresh) expect(errorOf(await enter(jar, old))).toBe('InvalidCode')
      expect(await enter(jar, fresh)).toMatchObject({ status: 200, body: { url: 'http://localhost:3000/dashboard' } })
    })

    it(`the link and the code are one secret: once one signs in, the other is refused (codes kept in ${keptIn})`, async () => {
      const { handler, outbox } = server()
      // The link first: its code then signs nobody in.
      const asking = new Jar(handler)
      await ask(asking)
      const first = outbox.at(-1)!
      const link = new URL(first.url)
      expect((await asking.get(link.pathname + link.search)).headers.get('location')).toBe('http://localhost:3000/dashboard')
      expect(errorOf(await enter(new Jar(handler), first.code!))).toBe('InvalidCode')
      // The code first, typed in another browser: the link then signs in nobody, not even the browser that asked.
      const other = new Jar(handler)
      await ask(other)
      const second = outbox.at(-1)!
      expect(await enter(new Jar(handler), second.code!)).toMatchObject({ status: 200, body: { url: 'http://localhost:3000/dashboard' } })
      const again = new URL(second.url)
      expect(new URL((await other.get(again.pathname + again.search)).headers.get('location')!, 'http://localhost:3000').searchParams.get('error')).toBe('Verification')
      expect(await other.session()).toBeNull()
    })
  }

  it('an expired code is CodeExpired, while the link (24 hours) still works', async () => {
    const { handler, outbox, clock } = testServer()
    const asking = new Jar(handler)
    await ask(asking)
    clock.now += 10 * 60_000 + 1000
    expect(errorOf(await enter(new Jar(handler), outbox.at(-1)!.code!))).toBe('CodeExpired')
    const link = new URL(outbox.at(-1)!.url)
    expect((await asking.get(link.pathname + link.search)).headers.get('location')).toBe('http://localhost:3000/dashboard')
  })

  it('a wrong code for an address with an account and one for an address never seen answer alike', async () => {
    const { handler, outbox } = testServer()
    const jar = new Jar(handler)
    await ask(jar)
    await enter(jar, outbox.at(-1)!.code!) // grace now has an account
    await ask(new Jar(handler))
    const known = await enter(new Jar(handler), '000001')
    const unknown = await enter(new Jar(handler), '000001', 'stranger@example.com')
    expect(known).toEqual(unknown)
    expect(known).toEqual({ status: 400, body: { url: 'http://localhost:3000/auth/error?error=InvalidCode', error: 'InvalidCode' } })
  })

  it('a code for another address, or none asked for, is InvalidCode', async () => {
    const { handler, outbox } = testServer()
    await ask(new Jar(handler))
    expect(errorOf(await enter(new Jar(handler), outbox.at(-1)!.code!, 'mallory@example.com'))).toBe('InvalidCode')
    expect(errorOf(await enter(new Jar(handler), '123456', 'nobody@example.com'))).toBe('InvalidCode')
    expect(errorOf(await enter(new Jar(handler), '', 'grace@example.com'))).toBe('InvalidCode')
    expect(errorOf(await enter(new Jar(handler), '123456', 'not an address'))).toBe('InvalidCode')
  })

  it('per-client limits on code attempts answer RateLimited', async () => {
    const { handler } = testServer({ rateLimit: { trustProxy: true, rules: { emailCode: [{ per: 'client', limit: 3, windowSeconds: 600 }] } } })
    const jar = new Jar(handler)
    const from = { ...asJson, 'x-forwarded-for': '192.0.2.7' }
    const statuses = []
    for (let i = 0; i < 4; i++) {
      const res = await jar.postForm('/auth/callback/email', { csrfToken: await jar.csrf(), email: `u${i}@example.com`, code: '123456' }, from)
      statuses.push(res.status)
    }
    expect(statuses).toEqual([400, 400, 400, 429])
  })
})

describe('code options', () => {
  function serverWith(code: Parameters<typeof Email>[0]['code'], adapter: Adapter = MemoryAdapter()) {
    const outbox: SendVerificationRequestParams[] = []
    const handler = Latchkey({ secret: testSecret, adapter, providers: [Email({ sendVerificationRequest: (p) => void outbox.push(p), code })] })
    return { handler, outbox }
  }

  it('a longer code over letters: typed in lower case with spaces and dashes, it still signs in', async () => {
    const { handler, outbox } = serverWith({ length: 8, alphabet: 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789' })
    await ask(new Jar(handler))
    const code = outbox.at(-1)!.code!
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/)
    const typed = `${code.slice(0, 4)}- ${code.slice(4)}`.toLowerCase()
    expect((await enter(new Jar(handler), typed)).body).toEqual({ url: 'http://localhost:3000/dashboard' })
  })

  it('code: false sends the link alone and takes no code', async () => {
    const { handler, outbox } = serverWith(false)
    await ask(new Jar(handler))
    expect(outbox.at(-1)!.code).toBeUndefined()
    expect(errorOf(await enter(new Jar(handler), '123456'))).toBe('InvalidRequest')
  })

  it('options no safe code can be made from are refused at start-up, with the fix', () => {
    expect(() => serverWith({ length: 3 })).toThrow(/code\.length must be a whole number from 4 to 32, got 3/)
    expect(() => serverWith({ alphabet: 'AA' })).toThrow(/code\.alphabet must hold at least 2 characters, each once/)
    expect(() => serverWith({ length: 4, alphabet: '01' })).toThrow(/guessed too easily in 5 tries; make it longer/)
    expect(() => serverWith({ maxAttempts: 0 })).toThrow(/code\.maxAttempts must be a whole number >= 1/)
  })

  it("an adapter without the code methods (Auth.js's) starts, saying once what the methods would bring; with code: false it says nothing", () => {
    const warnings: string[] = []
    const logger = { error: (e: Error) => warnings.push(`error ${e.message}`), warn: (code: string) => warnings.push(code), debug: () => {} }
    Latchkey({ secret: testSecret, adapter: withoutCodeMethods(), logger, providers: [Email({ sendVerificationRequest: () => {} })] })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^CodesInVerificationTokens: the adapter has no createVerificationCode and useVerificationCode .*kept in its verification tokens, their tries still counted; adding the two methods keeps one row per code/)
    warnings.length = 0
    Latchkey({ secret: testSecret, adapter: withoutCodeMethods(), logger, providers: [Email({ sendVerificationRequest: () => {}, code: false })] })
    Latchkey({ secret: testSecret, adapter: MemoryAdapter(), logger, providers: [Email({ sendVerificationRequest: () => {} })] })
    expect(warnings).toEqual([])
  })
})

describe("codes kept in verification tokens (an adapter without the code methods, as Auth.js's)", () => {
  const server = () => testServer({ adapter: withoutCodeMethods() })

  it('the code signs in another browser, once; the store holds no plain code', async () => {
    const { handler, outbox, logs } = server()
    await ask(new Jar(handler))
    const code = outbox.at(-1)!.code!
    expect(code).toMatch(/^\d{6}$/)
    const laptop = new Jar(handler)
    expect(await enter(laptop, code)).toEqual({ status: 200, body: { url: 'http://localhost:3000/dashboard' } })
    expect((await laptop.session()).user.email).toBe('grace@example.com')
    expect(errorOf(await enter(new Jar(handler), code))).toBe('InvalidCode')
    expect(logs.join('\n')).not.toContain(code)
  })

  it('twenty wrong codes and the right one at once: the stored code is looked for five times at most', async () => {
    const adapter = withoutCodeMethods()
    // Each look for the code itself (`code:<address>`, codes-in-tokens.ts) is one code weighed.
    let weighed = 0
    const use = adapter.useVerificationToken!
    adapter.useVerificationToken = (params) => {
      if (params.identifier.startsWith('code:')) weighed++
      return use(params)
    }
    const { handler, outbox } = testServer({ adapter, rateLimit: false })
    await ask(new Jar(handler))
    const code = outbox.at(-1)!.code!
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0')
    const jars = Array.from({ length: 21 }, () => new Jar(handler))
    const csrf = await Promise.all(jars.map((jar) => jar.csrf()))
    const answers = await Promise.all(
      jars.map(async (jar, i) => {
        const res = await jar.postForm('/auth/callback/email', { csrfToken: csrf[i], email: 'grace@example.com', code: i === 20 ? code : wrong(i), callbackUrl: '/dashboard' }, asJson)
        return errorOf({ body: await res.json() }) ?? 'signed in'
      }),
    )
    expect(weighed).toBe(5)
    expect(answers.filter((a) => a === 'signed in').length).toBeLessThanOrEqual(1)
    expect(answers.filter((a) => a !== 'InvalidCode' && a !== 'TooManyAttempts' && a !== 'signed in')).toEqual([])
    expect(errorOf(await enter(new Jar(handler), code))).toMatch(/TooManyAttempts|InvalidCode/)
    expect(weighed).toBe(5)
  })

  it('a code sent before the secret was rotated still signs in', async () => {
    const adapter = withoutCodeMethods()
    const before = testServer({ adapter })
    await ask(new Jar(before.handler))
    const after = testServer({ adapter, secret: ['another-secret-0123456789-abcdefghij', testSecret] })
    expect(await enter(new Jar(after.handler), before.outbox.at(-1)!.code!)).toMatchObject({ status: 200, body: { url: 'http://localhost:3000/dashboard' } })
  })

  it('an expired code is CodeExpired; a code for another address, or none asked for, is InvalidCode', async () => {
    const { handler, outbox, clock } = server()
    await ask(new Jar(handler))
    const code = outbox.at(-1)!.code!
    expect(errorOf(await enter(new Jar(handler), code, 'mallory@example.com'))).toBe('InvalidCode')
    expect(errorOf(await enter(new Jar(handler), '123456', 'nobody@example.com'))).toBe('InvalidCode')
    clock.now += 10 * 60_000 + 1000
    expect(errorOf(await enter(new Jar(handler), code))).toBe('CodeExpired')
  })
})

describe('the email message', () => {
  it('the built-in message shows the code beside the link, with its lifetime', async () => {
    const { signInMessage } = await import('../../src/providers/lib/email.js')
    const now = Date.now()
    const expires = new Date(now + 86400_000)
    const message = signInMessage({ url: 'https://app.example.com/auth/callback/email?token=t', expires, code: '428913', codeExpires: new Date(now + 10 * 60_000), now })
    expect(message.text).toContain('Or enter this code where you typed your address:\n428913\n\nThe link works for 24 hours, the code for 10 minutes.')
    expect(message.html.split('428913')).toHaveLength(2)
    expect(message.subject).toBe('Sign in to app.example.com')
    expect(signInMessage({ url: 'https://app.example.com/x', expires, now }).text).not.toContain('code')
  })
})
