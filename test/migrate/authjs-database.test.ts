/**
 * `migrateFrom.authjs` with database sessions: rows that `@auth/core` 0.41 stored with the raw
 * cookie as the token (through `@auth/pg-adapter` on PostgreSQL, through latchkey's own SQL
 * adapter, and through the memory adapter) are found once by the raw token, then moved to
 * latchkey's form (the SHA-256 of a new cookie): the raw row is gone, and the old cookie reads
 * nothing after. Two servers taking over the same session at once make one session, no error.
 * PostgreSQL runs against DATABASE_URL (required under CI=true).
 */
import { createHash, randomUUID } from 'node:crypto'
import type { Adapter as AuthjsAdapter } from '@auth/core/adapters'
import PgAdapter from '@auth/pg-adapter'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { fromPg, migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import type { Adapter } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import Passkey from '../../src/providers/passkey.js'
import { Latchkey } from '../../src/server/index.js'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { Jar } from '../support/jar.js'
import { needsService } from '../support/needs-service.js'
import { testSecret } from '../support/server.js'
import { authjsDatabaseCookies } from './authjs.js'
import { pgAdapterSchema } from '../support/authjs-pg-schema.js'

const day = 86400_000
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
const url = needsService('DATABASE_URL', 'PostgreSQL part of the Auth.js session migration', 'postgres://postgres@127.0.0.1:5432/test', 'test/migrate')

interface Store {
  name: string
  /** Whether the adapter moves a row in one step (replaceSessionToken). */
  atomic: boolean
  /** Two adapters over one store, as two servers have. */
  open(): Promise<[Adapter, Adapter]>
  /** Every session token the store holds for the user with this email. */
  tokensOf(email: string): Promise<string[]>
  /** Makes the row under `raw` claim a sign-in a moment ago, and `amr` where the store keeps one, as an Auth.js app's own columns might. */
  claimSignIn(raw: string): Promise<void>
  close(): Promise<void>
}


/** latchkey's adapters keep `createdAt` and `amr`: the row written again with them. */
async function claimedByAdapter(adapter: Adapter, raw: string): Promise<void> {
  const { session } = (await adapter.getSessionAndUser!(raw))!
  await adapter.deleteSession!(raw)
  await adapter.createSession!({ sessionToken: raw, userId: session.userId, expires: session.expires, createdAt: new Date(), amr: ['pwd', 'otp', 'mfa'] })
}

function memoryStore(): Store {
  const adapter = MemoryAdapter()
  return {
    name: 'the memory adapter',
    atomic: true,
    open: async () => [adapter, adapter],
    async tokensOf(email) {
      const user = await adapter.getUserByEmail(email)
      return user ? (await adapter.listSessionsByUserId(user.id)).map((s) => s.sessionToken) : []
    },
    claimSignIn: (raw) => claimedByAdapter(adapter, raw),
    close: async () => {},
  }
}

function postgresStore(databaseUrl: string): Store {
  let schema: IsolatedSchema
  let pool: pg.Pool
  return {
    name: "latchkey's SQL adapter on PostgreSQL",
    atomic: true,
    async open() {
      schema = await createIsolatedSchema(databaseUrl)
      pool = schema.pgPool(2)
      await migrate(fromPg(pool))
      return [PostgresAdapter(fromPg(pool)), PostgresAdapter(fromPg(schema.pgPool(2)))]
    },
    async tokensOf(email) {
      const { rows } = await pool.query(`SELECT s.session_token FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`, [email])
      return rows.map((r) => r.session_token as string)
    },
    claimSignIn: (raw) => claimedByAdapter(PostgresAdapter(fromPg(pool)), raw),
    close: async () => schema?.drop(),
  }
}

function pgAdapterStore(databaseUrl: string): Store {
  let schema: IsolatedSchema
  let pool: pg.Pool
  return {
    name: '@auth/pg-adapter on PostgreSQL',
    atomic: false,
    async open() {
      schema = await createIsolatedSchema(databaseUrl)
      pool = schema.pgPool(2)
      for (const statement of pgAdapterSchema) await pool.query(statement)
      return [PgAdapter(pool) as Adapter, PgAdapter(schema.pgPool(2)) as Adapter]
    },
    async tokensOf(email) {
      const { rows } = await pool.query(`SELECT s."sessionToken" FROM sessions s JOIN users u ON u.id = s."userId" WHERE u.email = $1`, [email])
      return rows.map((r) => r.sessionToken as string)
    },
    async claimSignIn() {
      // Auth.js's Prisma schema gives a session a createdAt of the row's own, which this adapter
      // reads back (select *) and latchkey's session type names: every row, the copy a move writes too.
      await pool.query(`ALTER TABLE sessions ADD COLUMN IF NOT EXISTS "createdAt" timestamptz NOT NULL DEFAULT now()`)
    },
    close: async () => schema?.drop(),
  }
}

const stores: Store[] = [memoryStore(), ...(url ? [postgresStore(url), pgAdapterStore(url)] : [])]

for (const store of stores) {
  describe(`Auth.js database sessions over ${store.name}`, () => {
    let adapters: [Adapter, Adapter]
    beforeAll(async () => {
      adapters = await store.open()
    }, 60_000)
    afterAll(() => store.close())

    function server(which = 0, until = new Date(Date.now() + 30 * day)) {
      const errors: string[] = []
      const handler = Latchkey({
        secret: testSecret,
        adapter: adapters[which],
        session: { strategy: 'database' },
        // A latchkey sign-in of a user the store holds, by address (its id is the adapter's own).
        providers: [
          Credentials({ credentials: { email: {} }, authorize: async (c) => adapters[which].getUserByEmail!(String(c.email)) }),
          // Adding a passkey needs a fresh session, where the store keeps passkeys.
          ...(adapters[which].listAuthenticatorsByUserId ? [Passkey()] : []),
        ],
        migrateFrom: { authjs: { until } },
        logger: { error: (e) => errors.push(`${e.name}: ${e.message}`), warn: () => {}, debug: () => {} },
      })
      return { handler, errors }
    }

    /** A new user signed in by @auth/core through this store: the raw cookie, and the email. */
    async function oldSession(): Promise<{ cookies: Map<string, string>; raw: string; email: string }> {
      const email = `old-${randomUUID()}@example.com`
      const cookies = await authjsDatabaseCookies(adapters[0] as AuthjsAdapter, email)
      const raw = cookies.get('authjs.session-token')!
      expect(raw).toBeTruthy()
      expect(await store.tokensOf(email)).toEqual([raw])
      return { cookies, raw, email }
    }

    function jarWith(handler: (r: Request) => Promise<Response>, cookies: Map<string, string>): Jar {
      const jar = new Jar(handler)
      for (const [name, value] of cookies) jar.cookies.set(name, value)
      return jar
    }

    test('a session @auth/core stored with its raw token is read without a sign-in and moved: the raw row is gone, the store holds the hash of latchkey\'s cookie', async () => {
      const { cookies, raw, email } = await oldSession()
      const { handler, errors } = server()
      const jar = jarWith(handler, cookies)
      const res = await jar.get('/auth/session')
      const session = await res.json()
      expect(session.user.email).toBe(email)
      // @auth/core's 30 days, begun a moment ago, kept.
      expect(Date.parse(session.expires)).toBeGreaterThan(Date.now() + 29 * day)
      const lines = res.headers.getSetCookie()
      expect(lines.some((l) => l.startsWith('authjs.session-token=;') && /Max-Age=0/.test(l))).toBe(true)
      expect([...jar.cookies.keys()]).toEqual(['latchkey.session-token'])
      const cookie = jar.cookies.get('latchkey.session-token')!
      expect(await store.tokensOf(email)).toEqual([sha256(cookie)])
      expect(await adapters[0].getSessionAndUser!(raw)).toBeNull()

      const again = await jar.get('/auth/session')
      expect((await again.json()).user.email).toBe(email)
      expect(again.headers.getSetCookie()).toEqual([])
      // The old cookie again (a tab whose request raced the move) gets the same session, not a second one.
      const late = jarWith(handler, cookies)
      expect((await late.session()).user.email).toBe(email)
      expect(late.cookies.get('latchkey.session-token')).toBe(cookie)
      expect(await store.tokensOf(email)).toEqual([sha256(cookie)])
      // Signed out, it is gone for both cookies.
      await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() })
      expect(await store.tokensOf(email)).toEqual([])
      expect(await jarWith(handler, cookies).session()).toBeNull()
      expect(errors).toEqual([])
    })

    test('two servers taking over the same session at once: one latchkey session, the same cookie from both, no error', async () => {
      const { cookies, email } = await oldSession()
      const [a, b] = [server(0), server(1)]
      const [ra, rb] = await Promise.all([jarWith(a.handler, cookies).get('/auth/session'), jarWith(b.handler, cookies).get('/auth/session')])
      expect([ra.status, rb.status]).toEqual([200, 200])
      expect((await ra.json()).user.email).toBe(email)
      expect((await rb.json()).user.email).toBe(email)
      const cookieOf = (res: Response) => res.headers.getSetCookie().find((l) => l.startsWith('latchkey.session-token='))
      expect(cookieOf(ra)).toBeDefined()
      expect(cookieOf(ra)!.split(';')[0]).toBe(cookieOf(rb)!.split(';')[0])
      const tokens = await store.tokensOf(email)
      // One session: one row where the adapter moves in one step; an adapter without it may have
      // written its copy twice, under the one token.
      if (store.atomic) expect(tokens).toHaveLength(1)
      expect(new Set(tokens)).toEqual(new Set([sha256(decodeURIComponent(cookieOf(ra)!.split(';')[0].split('=')[1]))]))
      expect([...a.errors, ...b.errors]).toEqual([])
    })

    test('a raw token with one character changed reads nothing and creates nothing', async () => {
      const { raw, email } = await oldSession()
      const changed = raw.slice(0, -1) + (raw.endsWith('a') ? 'b' : 'a')
      const jar = jarWith(server().handler, new Map([['authjs.session-token', changed]]))
      expect(await jar.session()).toBeNull()
      expect(jar.cookies.size).toBe(0)
      expect(await store.tokensOf(email)).toEqual([raw])
    })

    test('after `until` nothing old is read: no session, the row left as it is, nothing created', async () => {
      const { cookies, raw, email } = await oldSession()
      const jar = jarWith(server(0, new Date(Date.now() - 1000)).handler, cookies)
      expect(await jar.session()).toBeNull()
      expect(jar.cookies.size).toBe(0)
      expect(await store.tokensOf(email)).toEqual([raw])
    })

    test('an expired old session is refused and its row deleted, as latchkey\'s own', async () => {
      const { cookies, raw, email } = await oldSession()
      await adapters[0].updateSession!({ sessionToken: raw, expires: new Date(Date.now() - 1000) })
      const jar = jarWith(server().handler, cookies)
      expect(await jar.session()).toBeNull()
      expect(jar.cookies.size).toBe(0)
      expect(await store.tokensOf(email)).toEqual([])
    })

    test('a latchkey row\'s stored token (read from a leak of the table) sent as every Auth.js cookie is no session: the owner\'s cookie still works, nothing moved or deleted', async () => {
      const email = `leak-${randomUUID()}@example.com`
      await adapters[0].createUser!({ email, emailVerified: null, name: 'Victim' } as never)
      const { handler, errors } = server()
      const victim = new Jar(handler)
      const signedIn = await victim.postForm('/auth/callback/credentials', { csrfToken: await victim.csrf(), email })
      expect(signedIn.status).toBe(302)
      expect((await victim.session()).user.email).toBe(email)
      const [stored] = await store.tokensOf(email)
      expect(stored).toMatch(/^[0-9a-f]{64}$/)
      const names = ['authjs.session-token', '__Secure-authjs.session-token', 'next-auth.session-token', '__Secure-next-auth.session-token']
      // Each name, its chunked form, and the forms a database that ignores case, trailing spaces or
      // width (a fullwidth first digit, as MySQL's collations fold it) would match.
      const tries = [
        ...names.flatMap((name) => [
          new Map([[name, stored]]),
          new Map([
            [`${name}.0`, stored.slice(0, 30)],
            [`${name}.1`, stored.slice(30)],
          ]),
        ]),
        new Map([['authjs.session-token', stored.toUpperCase()]]),
        new Map([['next-auth.session-token', `${stored}%20`]]),
        new Map([['authjs.session-token', encodeURIComponent(String.fromCharCode(stored.charCodeAt(0) + 0xfee0)) + stored.slice(1)]]),
      ]
      for (const cookies of tries) {
        const thief = jarWith(handler, cookies)
        const res = await thief.get('/auth/session')
        expect(res.status).toBe(200)
        expect(await res.json()).toBeNull()
        expect(thief.cookies.has('latchkey.session-token')).toBe(false)
        // The app's own read, without a response (nothing moved: a read as it stands).
        const cookie = [...cookies].map(([n, v]) => `${n}=${v}`).join('; ')
        expect(await handler.getSession(new Request('http://localhost:3000/app', { headers: { cookie } }))).toBeNull()
        // Nor does signing out with it end the owner's session.
        const signingOut = jarWith(handler, cookies)
        expect((await signingOut.postForm('/auth/signout', { csrfToken: await signingOut.csrf() })).status).toBe(302)
      }
      expect(await store.tokensOf(email)).toEqual([stored])
      expect((await victim.session()).user.email).toBe(email)
      expect(errors).toEqual([])
    })

    test('a row that claims a recent sign-in and a second factor is taken over as neither: no amr, no signedInAt, not fresh, on this read and every later one', async () => {
      const { cookies, raw, email } = await oldSession()
      await store.claimSignIn(raw)
      const { handler, errors } = server()
      const cookie = [...cookies].map(([n, v]) => `${n}=${v}`).join('; ')
      // The app's read without a response: the row read as it stands.
      const read = (await handler.getSession(new Request('http://localhost:3000/app', { headers: { cookie } })))!
      expect(read.user?.email).toBe(email)
      expect([read.amr, read.signedInAt]).toEqual([undefined, undefined])
      const jar = jarWith(handler, cookies)
      // The first read takes it over; the second reads latchkey's own cookie.
      for (let i = 0; i < 2; i++) {
        const session = await jar.session()
        expect(session.user.email).toBe(email)
        expect([session.amr, session.signedInAt]).toEqual([undefined, undefined])
        expect(handler.isFresh(session)).toBe(false)
        expect([...jar.cookies.keys()]).toEqual(['latchkey.session-token'])
      }
      if (adapters[0].listAuthenticatorsByUserId) {
        const options = await jar.get('/auth/webauthn-options/passkey?action=register')
        expect(options.status).toBe(403)
        expect(await options.json()).toMatchObject({ error: 'SessionNotFresh' })
      }
      expect(errors).toEqual([])
    })

    test('sign-out with only the old cookie deletes its row', async () => {
      const { cookies, email } = await oldSession()
      const jar = jarWith(server().handler, cookies)
      const res = await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() })
      expect(res.status).toBe(302)
      expect(await store.tokensOf(email)).toEqual([])
      expect(await jar.session()).toBeNull()
    })
  })
}
