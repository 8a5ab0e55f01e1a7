/**
 * Races, against the memory adapter and a real PostgreSQL server (DATABASE_URL): parallel first
 * sign-ins of one person make one user; sign-outs racing session reads never bring a session back;
 * parallel clicks on one email link sign in exactly once; first sign-ins, sign-ups and email links
 * of one new address on several servers at once answer as the winner's sign-in (or sign-up) does.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { PostgresAdapter, migrate } from '../../src/adapters/postgres/index.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import Passkey from '../../src/providers/passkey.js'
import Password, { type PasswordEmail } from '../../src/providers/password.js'
import { verifyPassword } from '../../src/server/features/password/hash.js'
import { resolveConfig } from '../../src/server/kernel/config.js'
import { createContext } from '../../src/server/kernel/context.js'
import { Latchkey } from '../../src/server/index.js'
import { completeSignIn } from '../../src/server/sign-in/complete.js'
import { storedSessionToken } from '../../src/server/kernel/session-token.js'
import type { Adapter, AuthConfig, OAuth2Config, SendVerificationRequestParams } from '../../src/core/types.js'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { linkPageForm } from '../support/email-link.js'
import { Jar } from '../support/jar.js'
import { needsService } from '../support/needs-service.js'
import { lastLink, testSecret } from '../support/server.js'

const stores: Array<{ name: string; open: () => Promise<Adapter> }> = [{ name: 'memory', open: async () => MemoryAdapter() }]
const schemas: IsolatedSchema[] = []
const url = needsService('DATABASE_URL', 'PostgreSQL race suite (memory ran)', 'postgres://postgres@127.0.0.1:5432/test', 'test/hardening/races.test.ts')
if (url) {
  stores.push({
    name: 'postgresql',
    open: async () => {
      const schema = await createIsolatedSchema(url)
      schemas.push(schema)
      const pool = schema.pgPool(20)
      await migrate(PostgresAdapter(pool).db)
      return PostgresAdapter(pool)
    },
  })
}
afterAll(() => Promise.all(schemas.map((s) => s.drop())))

const oauth = (id: string): OAuth2Config<any> => ({ id, name: id, type: 'oauth', jwks_endpoint: undefined, allowDangerousEmailAccountLinking: true })

for (const store of stores) {
  describe(`races (${store.name})`, () => {
    it('parallel first sign-ins of one person through two providers make one user with both accounts', async () => {
      const adapter = await store.open()
      const config = resolveConfig({ secret: testSecret, adapter, providers: [oauth('alpha'), oauth('beta')], logger: { error: () => {}, warn: () => {}, debug: () => {} } })
      const signIn = (provider: string, n: number) =>
        completeSignIn(createContext(new Request(`http://localhost/auth/callback/${provider}`), config), {
          user: { email: `racer${n}@example.com`, name: 'R' },
          account: { type: 'oauth', provider, providerAccountId: `${provider}-${n}`, userId: '' },
          allowDangerousEmailAccountLinking: true,
        })
      const results = await Promise.allSettled(Array.from({ length: 10 }, (_, n) => [signIn('alpha', n), signIn('beta', n)]).flat())
      expect(results.filter((r) => r.status === 'rejected')).toEqual([])
      for (let n = 0; n < 10; n++) {
        const user = await adapter.getUserByEmail!(`racer${n}@example.com`)
        expect(user).not.toBeNull()
        expect((await adapter.getUserByAccount!({ provider: 'alpha', providerAccountId: `alpha-${n}` }))?.id).toBe(user!.id)
        expect((await adapter.getUserByAccount!({ provider: 'beta', providerAccountId: `beta-${n}` }))?.id).toBe(user!.id)
      }
    })

    it('sign-outs racing due session reads never bring the session back', async () => {
      const adapter = await store.open()
      let now = Date.parse('2026-03-01T00:00:00Z')
      const handler = Latchkey({
        secret: testSecret,
        adapter,
        now: () => now,
        providers: [Credentials({ authorize: (c) => ({ id: `u-${c.n}`, email: `u${c.n}@example.com` }) })],
      })
      for (let round = 0; round < 8; round++) {
        const jar = new Jar(handler)
        await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), n: String(round) })
        const token = jar.cookies.get('latchkey.session-token')!
        now += 2 * 86400_000 // due: every read below wants to extend it
        const csrfToken = await jar.csrf()
        const cookie = [...jar.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ')
        const read = () => handler(new Request('http://localhost:3000/auth/session', { headers: { cookie } })).then((r) => r.json())
        const signOut = () =>
          handler(new Request('http://localhost:3000/auth/signout', { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrfToken }) }))
        await Promise.all([read(), read(), signOut(), read(), read(), signOut(), read()])
        expect(await adapter.getSessionAndUser!(await storedSessionToken(token))).toBeNull()
        expect(await read()).toBeNull()
      }
    })

    it('parallel clicks on one email link sign in exactly once', async () => {
      const base = await store.open()
      let sessions = 0
      const adapter: Adapter = { ...base, createSession: (s) => (sessions++, base.createSession!(s)) }
      const outbox: SendVerificationRequestParams[] = []
      const handler = Latchkey({ secret: testSecret, adapter, logger: { error: () => {}, warn: () => {}, debug: () => {} }, providers: [Email({ sendVerificationRequest: (p) => void outbox.push(p) })] })
      const jar = new Jar(handler)
      await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'clicker@example.com', callbackUrl: '/in' })
      const link = lastLink(outbox)
      // Ten clicks in the asking browser (its cookie copied to each), ten on the link's page elsewhere.
      const asking = () => Object.assign(new Jar(handler), { cookies: new Map(jar.cookies) })
      const form = (await linkPageForm(await new Jar(handler).get(link)))!
      const click = () => new Jar(handler).postForm(form.action, form.fields, { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' })
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? click() : asking().get(link)).then((r) => r.headers.get('location'))))
      expect(answers.filter((l) => l === 'http://localhost:3000/in')).toHaveLength(1)
      expect(answers.filter((l) => l?.endsWith('error=Verification'))).toHaveLength(19)
      expect(sessions).toBe(1)
    })
  })
}

/**
 * The adapter with a barrier in `getUserByEmail`: the first `n` callers each read, then wait until
 * all `n` have read, so every one of them finds no user and goes on to create one (the race, not
 * one sign-in after another). Later calls (a loser reading the winner back) pass straight through.
 * It counts the rows made: users created, accounts linked, passwords set.
 */
function readTogether(base: Adapter, n: number) {
  let arrived = 0
  let release!: () => void
  const everyoneRead = new Promise<void>((resolve) => (release = resolve))
  const made = { users: 0, accounts: 0, passwords: 0 }
  const adapter: Adapter = {
    ...base,
    async getUserByEmail(email) {
      const found = await base.getUserByEmail!(email)
      if (arrived < n) {
        if (++arrived === n) release()
        await everyoneRead
      }
      return found
    },
    async createUser(user) {
      const created = await base.createUser!(user)
      made.users++
      return created
    },
    async linkAccount(account) {
      await base.linkAccount!(account)
      made.accounts++
    },
    async setPasswordHash(userId: string, hash: string) {
      await base.setPasswordHash!(userId, hash)
      made.passwords++
    },
  }
  return { adapter, made }
}

const quiet = { error: () => {}, warn: () => {}, debug: () => {} }
const processes = 3

for (const store of stores) {
  describe(`one new address on ${processes} servers at once (${store.name})`, () => {
    /** `processes` handlers on one database, as servers behind one load balancer; what each logged. */
    async function servers(config: (i: number) => Partial<AuthConfig>) {
      const { adapter, made } = readTogether(await store.open(), processes)
      const logged: string[] = []
      const logger = { error: (e: Error) => void logged.push(`${e.name}: ${e.message}`), warn: () => {}, debug: () => {} }
      const handlers = Array.from({ length: processes }, (_, i) => Latchkey({ secret: testSecret, adapter, logger, providers: [], ...config(i) }))
      return { adapter, made, logged, handlers }
    }

    it('first credentials sign-ins all sign in the one user authorize named', async () => {
      const { adapter, made, logged, handlers } = await servers(() => ({ providers: [Credentials({ authorize: () => ({ id: 'u-first', email: 'first@example.com', name: 'First' }) })] }))
      const jars = handlers.map((handler) => new Jar(handler))
      const tokens = await Promise.all(jars.map((jar) => jar.csrf()))
      const answers = await Promise.all(jars.map((jar, i) => jar.postForm('/auth/callback/credentials', { csrfToken: tokens[i]!, callbackUrl: '/in' })))
      expect(answers.map((r) => [r.status, r.headers.get('location')])).toEqual(jars.map(() => [302, 'http://localhost:3000/in']))
      expect((await Promise.all(jars.map((jar) => jar.session()))).map((s) => s?.user?.id)).toEqual(jars.map(() => 'u-first'))
      expect(made.users).toBe(1)
      expect((await adapter.getUserByEmail!('first@example.com'))?.id).toBe('u-first')
      expect(logged).toEqual([])
    })

    it('with passkeys offered too, the losers sign in the user authorize named, although its address is unproven', async () => {
      const authorize = () => ({ id: 'u-unproven', email: 'unproven@example.com' })
      const { adapter, made, logged, handlers } = await servers(() => ({ providers: [Credentials({ authorize }), Passkey()] }))
      const jars = handlers.map((handler) => new Jar(handler))
      const tokens = await Promise.all(jars.map((jar) => jar.csrf()))
      const answers = await Promise.all(jars.map((jar, i) => jar.postForm('/auth/callback/credentials', { csrfToken: tokens[i]!, callbackUrl: '/in' })))
      expect(answers.map((r) => r.headers.get('location'))).toEqual(jars.map(() => 'http://localhost:3000/in'))
      expect((await Promise.all(jars.map((jar) => jar.session()))).map((s) => s?.user?.id)).toEqual(jars.map(() => 'u-unproven'))
      expect(made.users).toBe(1)
      expect((await adapter.getUserByEmail!('unproven@example.com'))?.emailVerified).toBeNull()
      expect(logged).toEqual([])
    })

    it('each browser opening its own email link signs in the one new user, with one email account', async () => {
      const outboxes: SendVerificationRequestParams[][] = handlersOutboxes()
      const { adapter, made, logged, handlers } = await servers((i) => ({ providers: [Email({ sendVerificationRequest: (p) => void outboxes[i]!.push(p) })] }))
      const jars = handlers.map((handler) => new Jar(handler))
      for (const [i, jar] of jars.entries()) {
        const asked = await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'linked@example.com', callbackUrl: '/in' })
        expect(asked.status).toBe(302)
        expect(outboxes[i]).toHaveLength(1)
      }
      const answers = await Promise.all(jars.map((jar, i) => jar.get(lastLink(outboxes[i]!))))
      expect(answers.map((r) => r.headers.get('location'))).toEqual(jars.map(() => 'http://localhost:3000/in'))
      const user = await adapter.getUserByEmail!('linked@example.com')
      expect(user?.emailVerified).toBeInstanceOf(Date)
      expect((await Promise.all(jars.map((jar) => jar.session()))).map((s) => s?.user?.id)).toEqual(jars.map(() => user!.id))
      expect(made).toMatchObject({ users: 1, accounts: 1 })
      expect((await adapter.listAccountsByUserId!(user!.id)).map((a) => [a.provider, a.providerAccountId])).toEqual([['email', 'linked@example.com']])
      expect(logged).toEqual([])
    })

    it('sign-ups of one address with different passwords: each answers as a sign-up does, one password is set, none overwritten', async () => {
      const mail: PasswordEmail[] = []
      const { adapter, made, logged, handlers } = await servers(() => ({ providers: [Password({ sendEmail: (m) => void mail.push(m), breached: false })] }))
      const jars = handlers.map((handler) => new Jar(handler))
      const tokens = await Promise.all(jars.map((jar) => jar.csrf()))
      const passwords = jars.map((_, i) => `passphrase number ${i}`)
      const answers = await Promise.all(
        jars.map((jar, i) => jar.postForm('/auth/password/sign-up', { csrfToken: tokens[i]!, email: 'twice@example.com', password: passwords[i]! }, { 'x-auth-return-redirect': '1' })),
      )
      expect(await Promise.all(answers.map(async (r) => [r.status, await r.json()]))).toEqual(jars.map(() => [200, { ok: true }]))
      expect(made).toMatchObject({ users: 1, passwords: 1 })
      // The winner's confirmation, and for each other sign-up the mail an existing address gets.
      expect(mail.map((m) => m.kind).sort()).toEqual(['account-exists', 'account-exists', 'verify-email'])
      const user = (await adapter.getUserByEmail!('twice@example.com'))!
      const hash = (await adapter.getPasswordHash!(user.id))!
      const matching = await Promise.all(passwords.map(async (p) => (await verifyPassword(p, hash)).ok))
      expect(matching.filter(Boolean)).toHaveLength(1)
      expect(await Promise.all(jars.map((jar) => jar.session()))).toEqual(jars.map(() => null))
      expect(logged).toEqual([])
    })
  })
}

function handlersOutboxes(): SendVerificationRequestParams[][] {
  return Array.from({ length: processes }, () => [])
}
