/**
 * The public plugin contract (issue 42, item 1), through the guide's own example
 * (examples/plugins/waitlist.ts): installed from `plugins` or by a provider, its routes, its
 * registered error code and rate-limited action, its `afterSignIn`, and what start-up refuses.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { waitlist } from '../../examples/plugins/waitlist.js'
import { AuthError, json, rewriteSessionClaims, type LatchkeyPlugin } from '../../src/server/index.js'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

const client = { getClientAddress: () => '192.0.2.7' }

function server(plugins: LatchkeyPlugin[] = [waitlist({ capacity: 2 })], rateLimit: object = client) {
  return testServer({ plugins, rateLimit })
}

async function join(jar: Jar, email: string, csrfToken?: string) {
  return jar.postForm('/auth/waitlist', { csrfToken: csrfToken ?? (await jar.csrf()), action: 'join', email })
}

async function count(jar: Jar): Promise<number> {
  return (await (await jar.get('/auth/waitlist')).json()).waiting
}

describe('a plugin from plugins: [...]', () => {
  it('answers its routes, and is not there where it is not configured', async () => {
    const jar = new Jar(server().handler)
    expect(await count(jar)).toBe(0)
    expect((await join(jar, 'ada@example.com')).status).toBe(200)
    expect(await count(jar)).toBe(1)
    const without = await new Jar(testServer().handler).get('/auth/waitlist')
    expect(without.status).toBe(404)
    expect(await without.json()).toMatchObject({ error: 'UnknownAction' })
  })

  it("its words follow the request's page language, with its English where it has no translation", async () => {
    const jar = new Jar(server([waitlist({ capacity: 5 })]).handler)
    const text = async (lang: string) => (await (await jar.get('/auth/waitlist', { 'accept-language': lang })).json()).text
    await join(jar, 'ada@example.com')
    expect(await text('fr-CA,fr;q=0.9')).toBe('1 personne attend')
    expect(await text('de')).toBe('1 person waits')
    await join(jar, 'bo@example.com')
    expect(await text('fr')).toBe('2 personnes attendent')
    expect(await text('en')).toBe('2 people wait')
    // A language the configuration leaves out is not spoken, whatever the plugin has.
    const english = new Jar(testServer({ plugins: [waitlist({ capacity: 5 })], languages: ['en'] }).handler)
    expect((await (await english.get('/auth/waitlist', { 'accept-language': 'fr' })).json()).text).toBe('0 people wait')
  })

  it('its POST refuses a missing or foreign CSRF token and changes nothing', async () => {
    const jar = new Jar(server().handler)
    const missing = await jar.postForm('/auth/waitlist', { action: 'join', email: 'ada@example.com' })
    expect(missing.status).toBe(403)
    expect(await missing.json()).toMatchObject({ error: 'MissingCSRF' })
    const other = await new Jar(server().handler).csrf()
    expect((await join(jar, 'ada@example.com', other)).status).toBe(403)
    expect(await count(jar)).toBe(0)
  })

  it('bad input is a clear 400, nothing stored', async () => {
    const jar = new Jar(server().handler)
    for (const email of ['', 'not an address', 'a'.repeat(70_000)]) {
      const res = await join(jar, email)
      expect(res.status, email.slice(0, 20)).toBeGreaterThanOrEqual(400)
      expect(res.status, email.slice(0, 20)).toBeLessThan(500)
    }
    expect(await count(jar)).toBe(0)
  })

  it('its registered error code reaches the browser', async () => {
    const jar = new Jar(server().handler)
    await join(jar, 'ada@example.com')
    await join(jar, 'bo@example.com')
    const full = await join(jar, 'cy@example.com')
    expect(full.status).toBe(409)
    expect(await full.json()).toEqual({ error: 'WaitlistFull', message: 'The waitlist is full; try again later' })
  })

  it('a code it did not register reaches the browser as Configuration, logged in full on the server', async () => {
    const leaky: LatchkeyPlugin = {
      id: 'leaky',
      routes: { leaky: { GET: async () => { throw new AuthError('DatabaseRowMissing', 'row 42 of table secrets is gone') } } },
    }
    const made = server([leaky])
    const res = await new Jar(made.handler).get('/auth/leaky')
    expect(res.status).toBe(500)
    const body = await res.text()
    expect(JSON.parse(body)).toMatchObject({ error: 'Configuration' })
    expect(body).not.toContain('row 42')
    expect(made.logs.join('\n')).toContain('row 42 of table secrets is gone')
  })

  it('its rate-limited action counts per client with its own words, and the configuration may replace its rule', async () => {
    const jar = new Jar(server([waitlist({ capacity: 100 })]).handler)
    for (let i = 0; i < 5; i++) expect((await join(jar, `u${i}@example.com`)).status).toBe(200)
    const refused = await join(jar, 'u5@example.com')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await refused.json()).message).toMatch(/^Too many waitlist requests from this network address; try again in/)
    expect(await count(jar)).toBe(5)

    const looser = new Jar(server([waitlist({ capacity: 100 })], { ...client, rules: { waitlist: [{ per: 'client', limit: 8, windowSeconds: 60 }] } }).handler)
    for (let i = 0; i < 8; i++) expect((await join(looser, `u${i}@example.com`)).status).toBe(200)
    expect((await join(looser, 'u8@example.com')).status).toBe(429)
  })

  it('its afterSignIn runs after a sign-in by any way in', async () => {
    const jar = new Jar(server().handler)
    await join(jar, 'ada@example.com')
    expect(await count(jar)).toBe(1)
    const signIn = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
    expect(signIn.status).toBe(302)
    expect(await count(jar)).toBe(0)
  })
})

describe("a plugin's steps in the shared flow", () => {
  it('afterSignIn and onSignOut run for every way in, under both session strategies, and onSignOut only where a session ended', async () => {
    for (const strategy of ['database', 'jwt'] as const) {
      const seen: string[] = []
      const audit: LatchkeyPlugin = {
        id: 'audit',
        afterSignIn: async (_, { user, provider, linked }) => void seen.push(`in ${user.id} ${provider} ${linked}`),
        onSignOut: async (_, { userId }) => void seen.push(`out ${userId}`),
      }
      const jar = new Jar(testServer({ strategy, plugins: [audit] }).handler)
      await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() })
      expect(seen, strategy).toEqual([])
      await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
      await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() })
      expect(seen, strategy).toEqual(['in user-ada credentials false', 'out user-ada'])
    }
  })
})

describe("afterSignIn's session", () => {
  it('is the one just started: a plugin keeps its state in it (a row by its stored token, or a claim), and the first read shows it', async () => {
    for (const strategy of ['database', 'jwt'] as const) {
      const rows = new Map<string, string>()
      const team: LatchkeyPlugin = {
        id: 'team',
        afterSignIn: async (ctx, { session }) => {
          if (session.record) rows.set(session.record.sessionToken, 'blue')
          await rewriteSessionClaims(ctx, session, { team: 'blue' })
        },
        sessionFields: (_, { record, token }) => ({ team: record ? rows.get(record.sessionToken) : token?.team }),
      }
      const jar = new Jar(testServer({ strategy, plugins: [team] }).handler)
      const signIn = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
      expect(signIn.headers.get('latchkey-session'), strategy).toBeTruthy()
      expect(((await (await jar.get('/auth/session')).json()) as { team?: string }).team, strategy).toBe('blue')
      expect(rows.size, strategy).toBe(strategy === 'database' ? 1 : 0)
    }
  })
})

describe('beforeSignIn', () => {
  const gate = (seen: string[], refused: string): LatchkeyPlugin => ({
    id: 'gate',
    errorCodes: ['GateClosed'],
    beforeSignIn: async (_, { step, email, provider, user }) => {
      seen.push(`${step} ${provider} ${email} ${user?.id ?? '-'}`)
      if (email?.endsWith(refused)) return new AuthError('GateClosed', 'Not through this door', { status: 403 })
    },
  })

  it('is asked before an email is sent and in the completion step, with the address, the provider and the user; its refusal reaches the browser and stops the sign-in', async () => {
    const seen: string[] = []
    const made = testServer({ plugins: [gate(seen, '@closed.test')] })
    const jar = new Jar(made.handler)
    // Refused at the start: nothing sent, the plugin's code on the error page.
    const refused = await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'Bo@Closed.test' })
    expect(refused.headers.get('location')).toContain('error=GateClosed')
    expect(made.outbox).toHaveLength(0)
    expect(seen).toEqual(['start email bo@closed.test -'])
    // Allowed: sent, and the link's sign-in asks again in the completion step.
    seen.length = 0
    await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'ada@open.test' })
    expect(made.outbox).toHaveLength(1)
    await jar.get(made.outbox[0]!.url.replace(/^https?:\/\/[^/]+/, ''))
    expect(seen).toEqual(['start email ada@open.test -', 'complete email ada@open.test -'])
    expect(await made.adapter.getUserByEmail!('ada@open.test')).not.toBeNull()
  })

  it('refuses in the completion step before any session or user: a credentials user whose stored address it refuses', async () => {
    const seen: string[] = []
    const made = testServer({ plugins: [gate(seen, '@example.com')] })
    const jar = new Jar(made.handler)
    const signIn = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
    expect(signIn.headers.get('location')).toContain('error=GateClosed')
    expect(seen).toEqual(['complete credentials ada@example.com user-ada'])
    expect(await (await jar.get('/auth/session')).json()).toBeNull()
    expect(await made.adapter.getUserByEmail!('ada@example.com')).toBeNull()
  })

  it('a refusal with a code the plugin did not register reaches the browser as Configuration', async () => {
    const loose: LatchkeyPlugin = { id: 'loose', beforeSignIn: async () => new AuthError('GateClosed', 'no', { status: 403 }) }
    const jar = new Jar(testServer({ plugins: [loose] }).handler)
    const signIn = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
    expect(signIn.headers.get('location')).toContain('error=Configuration')
  })
})

describe('a plugin brought by a provider', () => {
  it('is installed with it, once, even when also listed', async () => {
    const plugin = waitlist({ capacity: 2 })
    const plain: LatchkeyPlugin = {
      id: 'echo',
      routes: { echo: { GET: async (ctx) => json(ctx, { echo: true }) } },
      method: { types: ['door'], leavesSite: false, callback: async (ctx) => json(ctx, { door: true }) },
    }
    const provider = { id: 'door', name: 'Door', type: 'door', plugin: plain }
    const made = testServer({ plugins: [plugin, plain], extraProviders: [provider as never], rateLimit: client })
    const jar = new Jar(made.handler)
    expect(await (await jar.get('/auth/echo')).json()).toEqual({ echo: true })
    expect(await (await jar.get('/auth/callback/door')).json()).toEqual({ door: true })
    expect(await count(jar)).toBe(0)
  })
})

describe('what start-up refuses', () => {
  const refusal = (f: () => unknown) => {
    try {
      f()
    } catch (error) {
      return error as AuthError
    }
    throw new Error('expected a refusal')
  }

  it('a plugin option it refuses, with its fix', () => {
    expect(refusal(() => server([waitlist({ capacity: 0 })]))).toMatchObject({ type: 'Configuration', message: 'waitlist: expected capacity to be a whole number >= 1, got 0' })
  })

  it('messages without English, with a key English lacks, or not text', () => {
    const words = (messages: unknown): LatchkeyPlugin => ({ id: 'words', messages: messages as LatchkeyPlugin['messages'] })
    expect(refusal(() => server([words({ fr: { hi: 'salut' } })])).message).toBe('latchkey: plugin "words" messages need English ("en") with every key')
    expect(refusal(() => server([words({ en: { hi: 'hi' }, fr: { bye: 'au revoir' } })])).message).toBe('latchkey: plugin "words" messages.fr has "bye", which English lacks')
    expect(refusal(() => server([words({ en: { hi: 3 } })])).message).toBe('latchkey: plugin "words" messages.en.hi must be a string (or a plural object with "other")')
    expect(refusal(() => server([words({ en: { hi: 'hi' }, 'not a tag!': {} })])).message).toMatch(/which is not a language tag/)
  })

  it('two different plugins under one id', () => {
    expect(refusal(() => server([waitlist({ capacity: 1 }), waitlist({ capacity: 2 })])).message).toBe('latchkey: two different plugins have the id "waitlist"; list each plugin once')
  })

  it('a plugin without an id, or not a plugin', () => {
    expect(refusal(() => server([{} as LatchkeyPlugin])).message).toMatch(/a plugin needs an id of letters, digits and "-", got undefined/)
    expect(refusal(() => testServer({ plugins: 'waitlist' as never })).message).toBe('latchkey: expected plugins to be a list of plugins')
  })

  it("a route another part answers (the core's /session)", () => {
    const thief: LatchkeyPlugin = { id: 'thief', routes: { session: { GET: async (ctx) => json(ctx, {}) } } }
    expect(refusal(() => server([thief])).message).toBe('latchkey: plugin "thief" answers session, which another part of the instance answers already; give its route another name')
  })

  it("a rate-limited action that is already latchkey's, or another plugin's", () => {
    const greedy: LatchkeyPlugin = { id: 'greedy', rateLimits: { email: { label: 'x', rules: [] } } }
    expect(refusal(() => server([greedy])).message).toBe('rateLimit: the action "email" is registered twice; a plugin\'s actions need names of their own')
    const twin: LatchkeyPlugin = { id: 'twin', rateLimits: { waitlist: { label: 'x', rules: [] } } }
    expect(refusal(() => server([waitlist({ capacity: 1 }), twin])).message).toBe('latchkey: plugins "waitlist" and "twin" both register the rate-limited action "waitlist"; give one of them another name')
  })

  it('a rule for an action no plugin registers', () => {
    expect(refusal(() => server([], { rules: { waitlist: [] } })).message).toMatch(/^rateLimit.rules: unknown action "waitlist"; expected one of email, emailCode/)
  })
})

describe('the guide', () => {
  it('docs/architecture.md shows the example plugin and its store as they are compiled and tested here', () => {
    const guide = readFileSync('docs/architecture.md', 'utf8')
    for (const file of ['examples/plugins/waitlist.ts', 'examples/plugins/waitlist-store.ts']) {
      expect(guide, file).toContain('```ts\n' + readFileSync(file, 'utf8') + '```')
    }
  })
})
