/**
 * /identity over HTTP: the signed-in user changes their name and image (seen on the next session
 * read, database and JWT sessions) and their email address through a link sent to the new one
 * (the old one told); and what an attacker meets: no CSRF token, a stale session, no session,
 * another user's link, a used or expired link, the same answer (and about the same time) for a
 * taken address as for a free one, bad input of every kind, and the rate limit. Memory adapter.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { AuthConfig } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import { Latchkey } from '../../src/server/index.js'
import { expectSameTime } from '../support/fastest.js'
import { Jar } from '../support/jar.js'
import { testSecret } from '../support/server.js'

interface Mail {
  to: string
  subject: string
  text: string
  html: string
}

const asJson = { 'x-auth-return-redirect': '1' }
const asPage = { accept: 'text/html' }

/** An app whose email provider delivers latchkey's messages into `mail` (after `delay` ms for those `slow` says). */
function app(strategy: 'database' | 'jwt', options: { sendMail?: boolean; slow?: (m: Mail) => boolean; config?: Partial<AuthConfig> } = {}) {
  const clock = { now: Date.parse('2026-03-01T00:00:00Z') }
  const store = MemoryAdapter()
  const mail: Mail[] = []
  const logs: string[] = []
  const links: string[] = []
  const send = async (m: Mail) => {
    if (options.slow?.(m)) await new Promise((done) => setTimeout(done, 150))
    mail.push(m)
  }
  const handler = Latchkey({
    secret: testSecret,
    adapter: store,
    session: { strategy, maxAge: 30 * 86400, updateAge: 86400 },
    now: () => clock.now,
    logger: { error: (e) => logs.push(`error ${e.name}: ${e.message}`), warn: () => {}, debug: () => {} },
    providers: [
      // Anyone, with the password "secret": user-<name>, <name>@example.com.
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: async ({ username, password }) => (typeof username === 'string' && password === 'secret' ? { id: `user-${username}`, name: username, email: `${username}@example.com` } : null),
      }),
      Email({ sendVerificationRequest: ({ url }) => void links.push(url), ...(options.sendMail !== false && { sendMail: send }) }),
    ],
    ...options.config,
  })
  return { handler, store, mail, logs, links, clock }
}
type App = ReturnType<typeof app>

async function signIn(made: App, username: string): Promise<Jar> {
  const jar = new Jar(made.handler)
  const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username, password: 'secret' }, asJson)
  expect(res.status).toBe(200)
  return jar
}

const post = async (jar: Jar, body: Record<string, unknown>) => jar.postJson('/auth/identity', { csrfToken: await jar.csrf(), ...body })
const changeEmail = (jar: Jar, email: string) => post(jar, { action: 'change-email', email })

/** The link in the last email to `to`, and its query. */
function linkTo(made: App, to: string) {
  const sent = made.mail.filter((m) => m.to === to).at(-1)
  const found = sent?.text.match(/http:\/\/localhost:3000\/auth\/identity\/email\?\S+/)?.[0]
  if (!found) throw new Error(`no email change link was sent to ${to}`)
  const url = new URL(found)
  return { path: url.pathname + url.search, fields: Object.fromEntries(url.searchParams) }
}

/** Asks for `email` as `jar`'s user, and answers the link it was sent once the work after the answer is done. */
async function askLink(made: App, jar: Jar, email: string) {
  expect((await changeEmail(jar, email)).status).toBe(200)
  await made.handler.settled()
  return linkTo(made, email)
}

const unescape = (html: string) => html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))

/** Uses the link as a person does: its page, then the page's button. */
async function follow(jar: Jar, link: { path: string }) {
  const page = await (await jar.get(link.path)).text()
  const hidden = Object.fromEntries([...page.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map(([, name, value]) => [name!, unescape(value!)]))
  return jar.postForm('/auth/identity/email', hidden, asPage)
}

for (const strategy of ['database', 'jwt'] as const) {
  describe(`/identity (${strategy} sessions)`, () => {
    it('the name and image change, and the next session read shows them; null clears them', async () => {
      const made = app(strategy)
      const jar = await signIn(made, 'ada')
      expect((await jar.session()).user).toMatchObject({ name: 'ada', image: null })
      const res = await post(jar, { action: 'update', name: '  Ada Lovelace ', image: 'https://images.example.com/ada.png' })
      expect(res.status).toBe(200)
      const answer = { name: 'Ada Lovelace', email: 'ada@example.com', image: 'https://images.example.com/ada.png', emailChange: true }
      expect(await res.json()).toEqual(answer)
      // The answer tells the browser the session changed (a JWT carries the new name in a new cookie).
      expect(res.headers.get('latchkey-session')).toBeTruthy()
      expect((await jar.session()).user).toMatchObject({ id: 'user-ada', name: 'Ada Lovelace', image: 'https://images.example.com/ada.png' })
      expect(await (await jar.get('/auth/identity')).json()).toEqual(answer)
      expect(await made.store.getUser('user-ada')).toMatchObject({ name: 'Ada Lovelace', image: 'https://images.example.com/ada.png' })
      // One field alone leaves the other; null clears.
      expect(await (await post(jar, { action: 'update', image: null })).json()).toMatchObject({ name: 'Ada Lovelace', image: null })
      expect(await (await post(jar, { action: 'update', name: null })).json()).toMatchObject({ name: null, image: null })
      expect((await jar.session()).user).toMatchObject({ name: null, image: null })
      expect(made.logs).toEqual([])
    })

    it('the email address changes through the link sent to it: emailVerified set, the old address told, the session shows it', async () => {
      const made = app(strategy)
      const jar = await signIn(made, 'ada')
      const res = await changeEmail(jar, 'Ada.New@Example.org ')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ ok: true })
      await made.handler.settled()
      // Nothing changed yet; the new address has the link, the old one the notice.
      expect((await made.store.getUser('user-ada'))!.email).toBe('ada@example.com')
      expect(made.mail.map((m) => [m.to, m.subject])).toEqual([
        ['ada.new@example.org', 'Confirm your new email address for localhost:3000'],
        ['ada@example.com', 'A new email address was asked for your account on localhost:3000'],
      ])
      expect(made.mail[1]!.text).not.toMatch(/identity\/email|ada\.new/)
      const link = linkTo(made, 'ada.new@example.org')
      // Opening the link changes nothing: its page names the account and the address, with a button.
      const page = await (await jar.get(link.path)).text()
      expect(page).toContain('Use <strong>ada.new@example.org</strong> as the email address of the account <strong>ada@example.com</strong>?')
      expect((await made.store.getUser('user-ada'))!.email).toBe('ada@example.com')
      made.clock.now += 60_000
      const done = await follow(jar, link)
      expect(done.status).toBe(200)
      expect(await done.text()).toContain('Your email address is now ada.new@example.org.')
      const user = (await made.store.getUser('user-ada'))!
      expect(user.email).toBe('ada.new@example.org')
      expect(user.emailVerified).toEqual(new Date(made.clock.now))
      expect(await made.store.getUserByEmail('ada@example.com')).toBeNull()
      // This browser stays signed in, as the same user, with the new address.
      expect((await jar.session()).user).toMatchObject({ id: 'user-ada', email: 'ada.new@example.org', name: 'ada' })
      expect(made.logs).toEqual([])
    })

    it('a link used by another signed-in user is refused and changes nothing; it still works for its own user', async () => {
      const made = app(strategy)
      const ada = await signIn(made, 'ada')
      const bo = await signIn(made, 'bo')
      const link = await askLink(made, ada, 'ada.new@example.org')
      const refused = await bo.postForm('/auth/identity/email', { csrfToken: await bo.csrf(), ...link.fields })
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ error: 'EmailChangeLinkInvalid' })
      // From the link's page: the same refusal, in words.
      const page = await follow(bo, link)
      expect(page.status).toBe(400)
      expect(await page.text()).toContain('it is for another account than the one signed in here')
      expect((await made.store.getUser('user-bo'))!.email).toBe('bo@example.com')
      expect((await made.store.getUser('user-ada'))!.email).toBe('ada@example.com')
      expect((await bo.session()).user.email).toBe('bo@example.com')
      // Bo's try spent nothing: Ada's link works for Ada.
      expect((await follow(ada, link)).status).toBe(200)
      expect((await made.store.getUser('user-ada'))!.email).toBe('ada.new@example.org')
    })

    it('no user id is taken from the body: an update with another id changes the signed-in user only', async () => {
      const made = app(strategy)
      const ada = await signIn(made, 'ada')
      await signIn(made, 'bo')
      const res = await post(ada, { action: 'update', id: 'user-bo', userId: 'user-bo', name: 'Mallory' })
      expect(await res.json()).toMatchObject({ name: 'Mallory', email: 'ada@example.com' })
      expect((await made.store.getUser('user-bo'))!.name).toBe('bo')
      expect((await made.store.getUser('user-ada'))!.name).toBe('Mallory')
    })
  })
}

describe('/identity: what an attacker meets', () => {
  it('without the CSRF token: 403 MissingCSRF, nothing changed, nothing sent', async () => {
    const made = app('database')
    const jar = await signIn(made, 'ada')
    const bodies = [{ action: 'update', name: 'Mallory' }, { action: 'change-email', email: 'mallory@example.org' }]
    for (const body of bodies) {
      for (const csrfToken of [undefined, 'forged']) {
        const res = await jar.postJson('/auth/identity', { ...body, csrfToken })
        expect(res.status).toBe(403)
        expect(await res.json()).toMatchObject({ error: 'MissingCSRF' })
      }
    }
    await made.handler.settled()
    expect((await made.store.getUser('user-ada'))!).toMatchObject({ name: 'ada', email: 'ada@example.com' })
    expect(made.mail).toEqual([])
    // Nor the link without its page's token.
    const link = await askLink(made, jar, 'ada.new@example.org')
    const res = await jar.postForm('/auth/identity/email', link.fields)
    expect(await res.json()).toMatchObject({ error: 'MissingCSRF' })
    expect((await made.store.getUser('user-ada'))!.email).toBe('ada@example.com')
    // The link still works once.
    expect((await follow(jar, link)).status).toBe(200)
  })

  it('a session past freshAge cannot ask for a new address: 403 SessionNotFresh, nothing sent; the name still changes', async () => {
    const made = app('database')
    const jar = await signIn(made, 'ada')
    made.clock.now += 2 * 3600_000
    const res = await changeEmail(jar, 'mallory@example.org')
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error: 'SessionNotFresh' })
    await made.handler.settled()
    expect(made.mail).toEqual([])
    expect((await post(jar, { action: 'update', name: 'Ada' })).status).toBe(200)
  })

  it('signed out: 401 AccessDenied on every route, nothing changed; the link page says to sign in', async () => {
    const made = app('database')
    const ada = await signIn(made, 'ada')
    const link = await askLink(made, ada, 'ada.new@example.org')
    const stranger = new Jar(made.handler)
    expect(await (await stranger.get('/auth/identity')).json()).toMatchObject({ error: 'AccessDenied' })
    for (const body of [{ action: 'update', name: 'Mallory' }, { action: 'change-email', email: 'mallory@example.org' }]) {
      const res = await post(stranger, body)
      expect(res.status).toBe(401)
      expect(await res.json()).toMatchObject({ error: 'AccessDenied' })
    }
    const used = await stranger.postForm('/auth/identity/email', { csrfToken: await stranger.csrf(), ...link.fields })
    expect(used.status).toBe(401)
    expect(await used.json()).toMatchObject({ error: 'AccessDenied' })
    // The page offers the sign-in, which comes back to the link.
    const page = await (await stranger.get(link.path)).text()
    expect(page).toContain('Sign in as the account that asked for this change, then open the link again.')
    expect(page).not.toContain('<form')
    const signInHref = unescape(page.match(/<a href="([^"]+)">Sign in<\/a>/)![1]!)
    expect(new URL(signInHref).searchParams.get('callbackUrl')).toBe(`http://localhost:3000${link.path}`)
    expect((await made.store.getUser('user-ada'))!).toMatchObject({ name: 'ada', email: 'ada@example.com' })
    // Nothing was spent: Ada, signed in, uses it.
    expect((await follow(ada, link)).status).toBe(200)
  })

  it('a used link, an expired one, an altered one and an older one are refused', async () => {
    const made = app('database')
    const jar = await signIn(made, 'ada')
    const older = await askLink(made, jar, 'first@example.org')
    const link = await askLink(made, jar, 'second@example.org')
    const use = async (fields: Record<string, string>) => jar.postForm('/auth/identity/email', { csrfToken: await jar.csrf(), ...fields })
    // A new request replaced the older link; an address put in the link in place of its own does not match.
    for (const fields of [older.fields, { ...link.fields, email: 'mallory@example.org' }, { ...link.fields, token: 'x'.repeat(43) }]) {
      const res = await use(fields)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ error: 'EmailChangeLinkInvalid' })
    }
    expect((await use(link.fields)).status).toBe(200)
    expect(await (await use(link.fields)).json()).toMatchObject({ error: 'EmailChangeLinkInvalid' })
    expect((await made.store.getUser('user-ada'))!.email).toBe('second@example.org')
    // An hour later a link no longer works.
    const bo = await signIn(made, 'bo')
    const expiring = await askLink(made, bo, 'bo.new@example.org')
    made.clock.now += 3600_000 + 1
    const late = await bo.postForm('/auth/identity/email', { csrfToken: await bo.csrf(), ...expiring.fields })
    expect(late.status).toBe(400)
    expect(await late.json()).toMatchObject({ error: 'EmailChangeLinkInvalid', message: expect.stringContaining('expired') })
    expect((await made.store.getUser('user-bo'))!.email).toBe('bo@example.com')
  })

  it('a taken address gets the same answer as a free one, no link, and never changes hands', async () => {
    const made = app('database')
    const ada = await signIn(made, 'ada')
    await signIn(made, 'bo')
    // An account made for an address nobody proved (a pre-account) holds it too.
    await made.store.createUser({ id: 'user-squat', email: 'squat@example.org', emailVerified: null, name: null, image: null })
    const answers = []
    for (const email of ['bo@example.com', 'squat@example.org', 'free@example.org']) {
      const res = await changeEmail(ada, email)
      answers.push({ status: res.status, body: await res.text(), cookies: res.headers.getSetCookie().map((c) => c.split('=')[0]) })
    }
    expect(answers[0]).toEqual(answers[2])
    expect(answers[1]).toEqual(answers[2])
    await made.handler.settled()
    // Only the free address got a link; the owner of the taken ones heard nothing.
    expect(made.mail.map((m) => m.to).sort()).toEqual(['ada@example.com', 'ada@example.com', 'ada@example.com', 'free@example.org'])
    expect((await made.store.getUser('user-ada'))!.email).toBe('ada@example.com')
    expect((await made.store.getUser('user-squat'))!).toMatchObject({ email: 'squat@example.org', emailVerified: null })
  })

  it('as fast for a taken address as for a free one, with a sender taking 150 ms; the free one is still sent its link', async () => {
    // Rate limits off: this asks more often than a user may in an hour.
    const made = app('database', { slow: (m) => m.to !== 'ada@example.com', config: { rateLimit: false } })
    const ada = await signIn(made, 'ada')
    await signIn(made, 'bo')
    const csrfToken = await ada.csrf()
    const ask = (email: string) => () => ada.postJson('/auth/identity', { csrfToken, action: 'change-email', email })
    const pairs = 31
    // Awaited, the free address's link would add the sender's 150 ms (a ratio far below 0.5).
    const { asked } = await expectSameTime(() => made.handler.settled(), pairs, ask('bo@example.com'), ask('free@example.org'))
    expect(made.mail.filter((m) => m.to === 'free@example.org')).toHaveLength(asked)
    expect(made.mail.filter((m) => m.to === 'bo@example.com')).toHaveLength(0)
  })

  it('bad input: a clear 400 (413 past the size limit) naming what was expected, never a 500, nothing changed or sent', async () => {
    const made = app('database')
    const jar = await signIn(made, 'ada')
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ action: 'update' }, /Expected "name" or "image"/],
      [{ action: 'update', name: 42 }, /Expected "name" to be 1 to 100 characters.*got a number/],
      [{ action: 'update', name: ['Ada'] }, /got an array/],
      [{ action: 'update', name: { first: 'Ada' } }, /got an object/],
      [{ action: 'update', name: true }, /got a boolean/],
      [{ action: 'update', name: '   ' }, /got an empty one/],
      [{ action: 'update', name: 'a'.repeat(101) }, /got 101 characters/],
      [{ action: 'update', name: 'Ada\nAdmin' }, /control character/],
      [{ action: 'update', name: 'Ada\u0000' }, /control character/],
      [{ action: 'update', name: 'evil\u202egnp.exe' }, /control character/],
      [{ action: 'update', image: 'javascript:alert(1)' }, /Expected "image" to be an https URL/],
      [{ action: 'update', image: 'JavaScript:alert(1)//https://x' }, /another scheme or host/],
      [{ action: 'update', image: 'data:image/svg+xml;base64,PHN2Zz4=' }, /another scheme or host/],
      [{ action: 'update', image: 'http://images.example.com/a.png' }, /another scheme or host/],
      [{ action: 'update', image: 'ftp://images.example.com/a.png' }, /another scheme or host/],
      [{ action: 'update', image: 'https://user:pass@images.example.com/a.png' }, /user name or password/],
      [{ action: 'update', image: `https://images.example.com/${'a'.repeat(2030)}` }, /got 2057 characters/],
      [{ action: 'update', image: 'not a url' }, /got no URL/],
      [{ action: 'update', image: 7 }, /got a number/],
      [{ action: 'update', name: 'Ada', email: 'mallory@example.org' }, /the address changes with action "change-email"/],
      [{ action: 'change-email', email: 'not an address' }, /Expected the new email address/],
      [{ action: 'change-email', email: ['a@example.org', 'b@example.org'] }, /Expected "email" to be a string, got an array/],
      [{ action: 'change-email', email: 'a@b@example.org' }, /Expected the new email address/],
      [{ action: 'change-email', email: 'change-email:x@example.org' }, /Expected the new email address/],
      [{ action: 'change-email' }, /Expected the new email address/],
      [{ action: 'change-email', email: 'ADA@example.com' }, /other than the one the account has/],
      [{ action: 'rename', name: 'Ada' }, /Expected "action" to be update or change-email/],
      [{ name: 'Ada' }, /Expected "action"/],
    ]
    for (const [body, message] of cases) {
      const res = await post(jar, body)
      expect({ body, status: res.status }).toEqual({ body, status: 400 })
      const answer = await res.json()
      expect(answer.error).toBe('InvalidRequest')
      expect(answer.message).toMatch(message)
    }
    // A body over the limit, malformed JSON, an unknown path.
    const huge = await jar.postJson('/auth/identity', { csrfToken: await jar.csrf(), action: 'update', name: 'x'.repeat(70_000) })
    expect(huge.status).toBe(413)
    const malformed = await jar.request('/auth/identity', { method: 'POST', body: '{"action":', headers: { 'content-type': 'application/json' } })
    expect(await malformed.json()).toMatchObject({ error: 'InvalidRequest' })
    expect((await jar.get('/auth/identity/other')).status).toBe(404)
    // The link with what is not a string in it.
    const link = await jar.postJson('/auth/identity/email', { csrfToken: await jar.csrf(), email: ['x@example.org'], token: { a: 1 } })
    expect(link.status).toBe(400)
    expect(await link.json()).toMatchObject({ error: 'EmailChangeLinkInvalid' })
    await made.handler.settled()
    expect(await made.store.getUser('user-ada')).toMatchObject({ name: 'ada', image: null, email: 'ada@example.com' })
    expect(made.mail).toEqual([])
    expect(made.logs).toEqual([])
  })

  it('the sends are rate-limited: the sixth request in an hour is a 429 and sends nothing', async () => {
    const made = app('database')
    const jar = await signIn(made, 'ada')
    for (let i = 0; i < 5; i++) expect((await changeEmail(jar, `new${i}@example.org`)).status).toBe(200)
    const refused = await changeEmail(jar, 'new5@example.org')
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({ error: 'RateLimited' })
    expect(refused.headers.get('retry-after')).toBeTruthy()
    await made.handler.settled()
    expect(made.mail.filter((m) => m.to === 'new5@example.org')).toEqual([])
    // One new address is asked for five times at most, by whoever asks.
    const bo = await signIn(made, 'bo')
    for (let i = 0; i < 5; i++) await changeEmail(bo, 'wanted@example.org')
    expect((await changeEmail(bo, 'wanted@example.org')).status).toBe(429)
  })

  it('accounts linked by OAuth keep working; the old address signs in no more, the new one does', async () => {
    const made = app('database')
    const jar = await signIn(made, 'ada')
    await made.store.linkAccount({ userId: 'user-ada', type: 'oauth', provider: 'github', providerAccountId: 'gh-1' })
    await made.store.linkAccount({ userId: 'user-ada', type: 'email', provider: 'email', providerAccountId: 'ada@example.com' })
    const link = await askLink(made, jar, 'ada.new@example.org')
    expect((await follow(jar, link)).status).toBe(200)
    expect((await made.store.listAccountsByUserId!('user-ada')).map((a) => a.provider)).toEqual(['github'])
    expect((await made.store.getUserByAccount({ provider: 'github', providerAccountId: 'gh-1' }))!.id).toBe('user-ada')
    // An email link to the old address makes a new account: Ada's is out of that inbox's reach.
    const signInByEmail = async (email: string) => {
      const browser = new Jar(made.handler)
      await browser.postForm('/auth/signin/email', { csrfToken: await browser.csrf(), email }, asJson)
      const url = new URL(made.links.at(-1)!)
      await browser.get(url.pathname + url.search)
      return (await browser.session()).user
    }
    expect((await signInByEmail('ada@example.com')).id).not.toBe('user-ada')
    expect((await signInByEmail('ada.new@example.org')).id).toBe('user-ada')
  })

  it('without an email provider that delivers latchkey\'s messages: emailChange false, and the request a 501 saying what to configure', async () => {
    const made = app('database', { sendMail: false })
    const jar = await signIn(made, 'ada')
    expect(await (await jar.get('/auth/identity')).json()).toMatchObject({ emailChange: false })
    const res = await changeEmail(jar, 'ada.new@example.org')
    expect(res.status).toBe(501)
    expect(await res.json()).toMatchObject({ error: 'NotSupported', message: expect.stringContaining('sendMail') })
    // The name still changes.
    expect((await post(jar, { action: 'update', name: 'Ada' })).status).toBe(200)
  })

  it('an instance without an adapter has no /identity', async () => {
    const handler = Latchkey({ secret: testSecret, session: { strategy: 'jwt' }, logger: { error: () => {}, warn: () => {}, debug: () => {} }, providers: [Credentials({ credentials: {}, authorize: () => null })] })
    expect((await new Jar(handler).get('/auth/identity')).status).toBe(404)
  })
})
