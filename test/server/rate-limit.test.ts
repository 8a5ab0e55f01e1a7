import { describe, expect, it } from 'vitest'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import type { SendVerificationRequestParams } from '../../src/core/types.js'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

const json = { 'x-auth-return-redirect': '1' }
const minutes = 60_000

/** A browser at one network address (the server believes X-Forwarded-For here: `trustProxy: true`). */
function browserAt(handler: (request: Request) => Promise<Response>, address: string) {
  const jar = new Jar(handler)
  const headers = { ...json, 'x-forwarded-for': address }
  return {
    jar,
    signIn: async (fields: Record<string, string>) => jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), ...fields }, headers),
    signInJson: async (fields: Record<string, unknown>) => jar.postJson('/auth/callback/credentials', { csrfToken: await jar.csrf(), ...fields }, headers),
  }
}

describe('rate limits through the handler', () => {
  it('a sixth email in 15 minutes to one address is refused with 429 and Retry-After, and sends nothing', async () => {
    const { handler, outbox, clock } = testServer()
    const jar = new Jar(handler)
    const send = async () => jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'Target@Example.com' }, json)
    for (let i = 0; i < 5; i++) expect((await send()).status).toBe(200)
    const refused = await send()
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({ error: 'RateLimited', url: 'http://localhost:3000/auth/error?error=RateLimited' })
    expect(outbox).toHaveLength(5)
    clock.now += 15 * 60_000
    expect((await send()).status).toBe(200)
  })

  it('a form post past the limit lands on the error page that says so', async () => {
    const { handler } = testServer({ rateLimit: { trustProxy: true } })
    const jar = new Jar(handler)
    const from = { 'x-forwarded-for': '192.0.2.1' }
    for (let i = 0; i < 10; i++) await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'wrong' }, from)
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'wrong' }, from)
    expect(res.headers.get('location')).toBe('http://localhost:3000/auth/error?error=RateLimited')
    expect(await (await jar.get('/auth/error?error=RateLimited')).text()).toMatch(/Too many attempts/)
  })

  it('rateLimit: false turns them off', async () => {
    const { handler, outbox } = testServer({ rateLimit: false })
    const jar = new Jar(handler)
    for (let i = 0; i < 8; i++) await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'a@example.com' }, json)
    expect(outbox).toHaveLength(8)
  })
})

describe('credentials: failures count, per account and address, under a per-account ceiling', () => {
  const limited = () => testServer({ rateLimit: { trustProxy: true } })

  it("a stranger's eleven wrong guesses from one address do not lock the owner out from another", async () => {
    const { handler } = limited()
    const attacker = browserAt(handler, '203.0.113.66')
    for (let i = 0; i < 10; i++) expect((await attacker.signIn({ username: 'ada', password: `guess-${i}` })).status).toBe(401)
    const eleventh = await attacker.signIn({ username: 'ada', password: 'guess-10' })
    expect(eleventh.status).toBe(429)
    expect((await eleventh.json()).error).toBe('RateLimited')
    // The owner, elsewhere, signs in.
    const owner = browserAt(handler, '198.51.100.7')
    expect((await owner.signIn({ username: 'ada', password: 'lovelace' })).status).toBe(200)
    expect((await owner.jar.session()).user.email).toBe('ada@example.com')
    // The attacker's address stays held back on this account, even with the right password...
    expect((await attacker.signIn({ username: 'ada', password: 'lovelace' })).status).toBe(429)
    expect(attacker.jar.cookies.has('latchkey.session-token')).toBe(false)
    // ...but not on another account.
    expect((await attacker.signIn({ username: 'grace', password: 'x' })).status).toBe(401)
  })

  it('an attacker rotating addresses meets the ceiling: the 101st failure in 15 minutes is refused from anywhere, the owner too', async () => {
    const { handler, clock } = limited()
    for (let a = 0; a < 10; a++) {
      const attacker = browserAt(handler, `203.0.113.${a}`)
      for (let i = 0; i < 10; i++) expect((await attacker.signIn({ username: 'ada', password: `guess-${a}-${i}` })).status).toBe(401)
    }
    const fresh = await browserAt(handler, '203.0.113.200').signIn({ username: 'ada', password: 'guess-x' })
    expect(fresh.status).toBe(429)
    const owner = browserAt(handler, '198.51.100.7')
    const refused = await owner.signIn({ username: 'ada', password: 'lovelace' })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBe(15 * 60)
    clock.now += 15 * minutes
    expect((await owner.signIn({ username: 'ada', password: 'lovelace' })).status).toBe(200)
  })

  it('attempts a limit refuses are not failures: one address cannot push the account to its ceiling', async () => {
    const { handler } = limited()
    const attacker = browserAt(handler, '203.0.113.66')
    for (let i = 0; i < 10; i++) await attacker.signIn({ username: 'ada', password: `guess-${i}` })
    for (let i = 0; i < 120; i++) expect((await attacker.signIn({ username: 'ada', password: `more-${i}` })).status).toBe(429)
    expect((await browserAt(handler, '198.51.100.7').signIn({ username: 'ada', password: 'lovelace' })).status).toBe(200)
  })

  it('successes do not count: the owner signs in twenty times in a row, after a typo', async () => {
    const { handler } = limited()
    const owner = browserAt(handler, '198.51.100.7')
    expect((await owner.signIn({ username: 'ada', password: 'lovelac' })).status).toBe(401)
    for (let i = 0; i < 20; i++) expect((await owner.signIn({ username: 'ada', password: 'lovelace' })).status).toBe(200)
  })

  it('without a client address, ten failures hold the account back, as one unknown address', async () => {
    const { handler } = testServer()
    const jar = new Jar(handler)
    const attempt = async (password: string) => jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password }, json)
    for (let i = 0; i < 10; i++) expect((await attempt('wrong')).status).toBe(401)
    expect((await attempt('lovelace')).status).toBe(429)
    expect(jar.cookies.has('latchkey.session-token')).toBe(false)
  })

  it('fifty guesses in parallel from one address: authorize sees at most ten', async () => {
    let calls = 0
    const { handler } = testServer({
      rateLimit: { trustProxy: true },
      providers: [
        Credentials({
          credentials: { username: {}, password: { type: 'password' } },
          authorize: async () => (calls++, new Promise((resolve) => setTimeout(() => resolve(null), 5))),
        }),
      ],
    })
    const attacker = browserAt(handler, '203.0.113.66')
    const token = await attacker.jar.csrf()
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        attacker.jar.postForm('/auth/callback/credentials', { csrfToken: token, username: 'ada', password: `g${i}` }, { ...json, 'x-forwarded-for': '203.0.113.66' }).then((r) => r.status),
      ),
    )
    expect(calls).toBe(10)
    expect(statuses.filter((s) => s === 401)).toHaveLength(10)
    expect(statuses.filter((s) => s === 429)).toHaveLength(40)
  })
})

describe('credentials: the account counted is the one authorize receives', () => {
  const carol = { id: 'user-carol', name: 'Carol', email: 'carol@example.com' }
  function emailForm() {
    const seen: unknown[] = []
    const server = testServer({
      rateLimit: { trustProxy: true },
      providers: [
        Credentials({
          credentials: { email: { label: 'Email' }, password: { label: 'Password', type: 'password' } },
          authorize: async (c) => (seen.push(c.email), c.email === 'carol@example.com' && c.password === 'right' ? carol : null),
        }),
      ],
    })
    return { ...server, seen }
  }

  it('a form whose field is email cannot add username=junk<i> for a fresh count on every guess', async () => {
    const { handler } = emailForm()
    const attacker = browserAt(handler, '203.0.113.66')
    for (let i = 0; i < 10; i++) expect((await attacker.signIn({ email: 'carol@example.com', username: `junk${i}`, password: `guess-${i}` })).status).toBe(401)
    const refused = await attacker.signIn({ email: ' Carol@Example.com', username: 'junk10', password: 'guess-10' })
    expect(refused.status).toBe(429)
    expect((await refused.json()).error).toBe('RateLimited')
  })

  it('an array, object, number or null in a declared field is a 400 and never reaches authorize', async () => {
    const { handler, seen } = emailForm()
    const attacker = browserAt(handler, '203.0.113.66')
    for (const email of [['carol@example.com'], { $ne: null }, 42, null]) {
      const res = await attacker.signInJson({ email, password: 'guess' })
      expect(res.status).toBe(400)
      const body = await res.json()
      expect(body.error).toBe('InvalidRequest')
      expect(body.message ?? '').not.toMatch(/carol/)
    }
    const res = await attacker.signInJson({ email: 'carol@example.com', password: ['right'] })
    expect(res.status).toBe(400)
    expect(seen).toEqual([])
    // Nothing was counted, as a success or as a failure: ten guesses still reach authorize.
    for (let i = 0; i < 10; i++) expect((await attacker.signInJson({ email: 'carol@example.com', password: `g${i}` })).status).toBe(401)
    expect(seen).toHaveLength(10)
  })

  it('a JSON username ["ada"] with the right password is a 400, not a sign-in that skipped the account rule', async () => {
    const { handler } = testServer({ rateLimit: { trustProxy: true } })
    const attacker = browserAt(handler, '203.0.113.66')
    const res = await attacker.signInJson({ username: ['ada'], password: 'lovelace' })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'InvalidRequest' })
    expect(attacker.jar.cookies.has('latchkey.session-token')).toBe(false)
  })

  it('with no fields declared, username and email both count, so junk in one cannot move the other', async () => {
    const { handler } = testServer({
      rateLimit: { trustProxy: true },
      providers: [Credentials({ authorize: async () => null })],
    })
    const attacker = browserAt(handler, '203.0.113.66')
    for (let i = 0; i < 10; i++) await attacker.signIn({ email: 'carol@example.com', username: `junk${i}`, password: `g${i}` })
    expect((await attacker.signIn({ email: 'carol@example.com', username: 'junk10', password: 'g10' })).status).toBe(429)
    expect((await attacker.signInJson({ email: 'carol@example.com', username: { $gt: '' }, password: 'g' })).status).toBe(400)
  })

  it('accountField names the field to count by', async () => {
    const { handler } = testServer({
      rateLimit: { trustProxy: true },
      providers: [Credentials({ credentials: { team: {}, login: {}, password: { type: 'password' } }, accountField: 'login', authorize: async () => null })],
    })
    const attacker = browserAt(handler, '203.0.113.66')
    for (let i = 0; i < 10; i++) await attacker.signIn({ team: `team-${i}`, login: 'carol', password: `g${i}` })
    expect((await attacker.signIn({ team: 'team-10', login: 'CAROL', password: 'g10' })).status).toBe(429)
  })
})

describe('email sign-in: counted by the address the link goes to', () => {
  function server(normalizeIdentifier?: (identifier: string) => string) {
    const outbox: SendVerificationRequestParams[] = []
    const email = Email({ sendVerificationRequest: (params) => void outbox.push(params), normalizeIdentifier })
    return { ...testServer({ providers: [email] }), outbox }
  }
  const send = async (jar: Jar, body: Record<string, unknown>) => jar.postJson('/auth/signin/email', { csrfToken: await jar.csrf(), ...body }, json)

  it("case and spaces do not make a new address, and an array is a 400 that sends nothing", async () => {
    const { handler, outbox } = server()
    const jar = new Jar(handler)
    for (const email of ['carol@example.com', ' CAROL@example.com', 'Carol@Example.COM ', 'carol@EXAMPLE.com', '\tcarol@example.com']) expect((await send(jar, { email })).status).toBe(200)
    expect((await send(jar, { email: 'cArOl@example.com' })).status).toBe(429)
    const array = await send(jar, { email: ['dave@example.com'] })
    expect(array.status).toBe(400)
    expect(await array.json()).toMatchObject({ error: 'InvalidRequest' })
    expect(outbox.map((m) => m.identifier)).toEqual(Array(5).fill('carol@example.com'))
  })

  it("the provider's normalizeIdentifier decides the address: +tags that reach one inbox share one count", async () => {
    const { handler, outbox } = server((identifier) => identifier.trim().toLowerCase().replace(/\+[^@]*@/, '@'))
    const jar = new Jar(handler)
    for (let i = 0; i < 5; i++) expect((await send(jar, { email: `carol+${i}@example.com` })).status).toBe(200)
    expect((await send(jar, { email: 'carol+5@example.com' })).status).toBe(429)
    expect(outbox).toHaveLength(5)
  })
})
