/**
 * latchkey's session and sign-in scenarios against every adapter a user may plug in: our own
 * (memory, the SQL adapter on PGlite and on PostgreSQL) and Auth.js's (@auth/pg-adapter,
 * @auth/unstorage-adapter on unstorage's memory driver, @auth/drizzle-adapter on PGlite), each
 * created as its documentation says. The Auth.js adapters answer what the contract allows and
 * no more: `updateSession` may answer undefined, `deleteSession` nothing, user ids may be numbers.
 */
import { createHash, randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { DrizzleAdapter } from '@auth/drizzle-adapter'
import PgAdapter from '@auth/pg-adapter'
import { UnstorageAdapter } from '@auth/unstorage-adapter'
import { drizzle } from 'drizzle-orm/pglite'
import type pg from 'pg'
import { createStorage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { fromPg, fromPGlite, migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import { parseTiming, timingHeader } from '../../src/core/session-rule.js'
import type { Adapter, SendVerificationRequestParams } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import { Latchkey } from '../../src/server/index.js'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { followEmailLink } from '../support/email-link.js'
import { Jar } from '../support/jar.js'
import { lastLink, testSecret } from '../support/server.js'
import { pgAdapterSchema } from '../support/authjs-pg-schema.js'

const day = 86400_000
const cookieName = 'latchkey.session-token'
const url = process.env.DATABASE_URL

/** The stored form of a cookie, computed here independently of the server's module. */
const sha256 = (cookie: string) => createHash('sha256').update(cookie).digest('hex')

interface Store {
  name: string
  open(): Promise<Adapter>
  close(): Promise<void>
}


/** @auth/drizzle-adapter's default PostgreSQL tables (its `defineTables`), as drizzle-kit would create them. */
const drizzleSchema = [
  `CREATE TABLE "user" (id text PRIMARY KEY, name text, email text UNIQUE, "emailVerified" timestamp, image text)`,
  `CREATE TABLE account (
    "userId" text NOT NULL REFERENCES "user" (id) ON DELETE CASCADE, type text NOT NULL, provider text NOT NULL,
    "providerAccountId" text NOT NULL, refresh_token text, access_token text, expires_at integer, token_type text,
    scope text, id_token text, session_state text, PRIMARY KEY (provider, "providerAccountId"))`,
  `CREATE TABLE session ("sessionToken" text PRIMARY KEY, "userId" text NOT NULL REFERENCES "user" (id) ON DELETE CASCADE, expires timestamp NOT NULL)`,
  `CREATE TABLE "verificationToken" (identifier text NOT NULL, token text NOT NULL, expires timestamp NOT NULL, PRIMARY KEY (identifier, token))`,
]

/** PGlite as the node-postgres client @auth/pg-adapter expects: `query` answering `{ rows, rowCount }`. */
function pgShaped(db: PGlite): pg.Pool {
  const query = async (sql: string, params?: unknown[]) => {
    const result = await db.query(sql, params as any[])
    return { rows: result.rows, rowCount: Math.max(result.rows.length, result.affectedRows ?? 0) }
  }
  return { query } as unknown as pg.Pool
}

function pgliteStore(name: string, adapter: (db: PGlite) => Promise<Adapter>): Store {
  let db: PGlite | undefined
  return {
    name,
    open: async () => adapter((db = await PGlite.create())),
    close: async () => db?.close(),
  }
}

async function runAll(db: { query(sql: string, params: unknown[]): Promise<unknown> }, statements: string[]) {
  for (const statement of statements) await db.query(statement, [])
}

const stores: Store[] = [
  { name: 'MemoryAdapter', open: async () => MemoryAdapter(), close: async () => {} },
  pgliteStore('PostgresAdapter on PGlite', async (db) => {
    await migrate(fromPGlite(db))
    return PostgresAdapter(fromPGlite(db))
  }),
  pgliteStore('@auth/pg-adapter on PGlite', async (db) => {
    await runAll(db, pgAdapterSchema)
    return PgAdapter(pgShaped(db))
  }),
  { name: '@auth/unstorage-adapter on the memory driver', open: async () => UnstorageAdapter(createStorage({ driver: memoryDriver() })), close: async () => {} },
  pgliteStore('@auth/drizzle-adapter on PGlite', async (db) => {
    await runAll(db, drizzleSchema)
    return DrizzleAdapter(drizzle({ client: db }))
  }),
]

if (url) {
  let schema: IsolatedSchema | undefined
  const isolated = async () => (schema = await createIsolatedSchema(url))
  const close = async () => schema?.drop()
  stores.push(
    {
      name: 'PostgresAdapter on PostgreSQL',
      open: async () => {
        const db = fromPg((await isolated()).pgPool(2))
        await migrate(db)
        return PostgresAdapter(db)
      },
      close,
    },
    {
      name: '@auth/pg-adapter on PostgreSQL',
      open: async () => {
        const pool = (await isolated()).pgPool(2)
        await runAll(pool, pgAdapterSchema)
        return PgAdapter(pool)
      },
      close,
    },
  )
} else {
  console.warn('*** DATABASE_URL is not set: the session scenarios did NOT run against PostgreSQL, only memory, PGlite and unstorage ***')
}

for (const store of stores) {
  describe(`sessions and sign-in over ${store.name}`, () => {
    let adapter: Adapter
    const errors: string[] = []
    beforeAll(async () => {
      adapter = await store.open()
    }, 60_000)
    afterAll(() => store.close())
    afterEach(() => {
      // Nothing the adapter answered may have been taken for a failure.
      expect(errors).toEqual([])
      errors.length = 0
    })

    function server() {
      const clock = { now: Date.parse('2026-01-01T00:00:00Z') }
      const outbox: SendVerificationRequestParams[] = []
      const notes: string[] = []
      const handler = Latchkey({
        secret: testSecret,
        adapter,
        session: { strategy: 'database', maxAge: 30 * 86400, updateAge: 86400 },
        now: () => clock.now,
        logger: {
          error: (e) => errors.push(`${e.name}: ${e.message}`),
          // The one start-up note an adapter without code methods brings (Auth.js's) is expected; nothing else.
          warn: (c) => (c.startsWith('CodesInVerificationTokens:') ? notes : errors).push(c),
          debug: () => {},
        },
        providers: [
          Credentials({ authorize: (c) => (typeof c.email === 'string' && c.password === 'right' ? { id: `app-${c.email}`, email: c.email } : null) }),
          // As configured for Auth.js: codes on by default, whatever the adapter.
          Email({ sendVerificationRequest: (params) => void outbox.push(params) }),
        ],
      })
      const signInWithPassword = async (jar: Jar, email: string) => {
        const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), email, password: 'right' })
        expect(res.status).toBe(302)
        expect(res.headers.get('location')).not.toMatch(/error=/)
      }
      const signInWithEmail = async (jar: Jar, email: string) => {
        await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email })
        // Signed in as another user, the link asks first (its page), and the click switches.
        const res = await followEmailLink(jar, lastLink(outbox))
        expect(res.headers.get('location')).not.toMatch(/error=/)
      }
      const enterCode = async (jar: Jar, email: string, code: string) => {
        const res = await jar.postForm('/auth/callback/email', { csrfToken: await jar.csrf(), email, code }, { 'x-auth-return-redirect': '1' })
        const body = (await res.json()) as { url: string; error?: string }
        return body.error ?? 'signed in'
      }
      return { handler, clock, outbox, notes, signInWithPassword, signInWithEmail, enterCode }
    }

    const newEmail = () => `u-${randomUUID()}@example.com`
    const cookieOf = (jar: Jar) => jar.cookies.get(cookieName)!
    const stored = (cookie: string) => adapter.getSessionAndUser!(sha256(cookie))

    test('credentials sign-in: the session reads back, and the store holds only the hash of the cookie', async () => {
      const { handler, signInWithPassword } = server()
      const jar = new Jar(handler)
      const email = newEmail()
      await signInWithPassword(jar, email)
      expect((await jar.session()).user.email).toBe(email)
      const cookie = cookieOf(jar)
      expect(await adapter.getSessionAndUser!(cookie)).toBeNull()
      expect((await stored(cookie))?.user.email).toBe(email)
    })

    test('email sign-in: the link signs in', async () => {
      const { handler, signInWithEmail } = server()
      const jar = new Jar(handler)
      const email = newEmail()
      await signInWithEmail(jar, email)
      expect((await jar.session()).user.email).toBe(email)
      expect((await stored(cookieOf(jar)))?.user.email).toBe(email)
    })

    test('email sign-in by code: it signs in another browser once; five wrong codes kill the next one', async () => {
      const { handler, outbox, notes, enterCode } = server()
      // Said once at start-up where the adapter has no code methods of its own, never where it has.
      expect(notes).toHaveLength(typeof adapter.useVerificationCode === 'function' ? 0 : 1)
      const email = newEmail()
      const phone = new Jar(handler)
      await phone.postForm('/auth/signin/email', { csrfToken: await phone.csrf(), email })
      const laptop = new Jar(handler)
      expect(await enterCode(laptop, email, outbox.at(-1)!.code!)).toBe('signed in')
      expect((await laptop.session()).user.email).toBe(email)
      expect(await enterCode(new Jar(handler), email, outbox.at(-1)!.code!)).toBe('InvalidCode')

      const jar = new Jar(handler)
      await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email })
      const code = outbox.at(-1)!.code!
      const wrong = code === '000000' ? '111111' : '000000'
      const answers = []
      for (let i = 0; i < 5; i++) answers.push(await enterCode(jar, email, wrong))
      expect(answers).toEqual(['InvalidCode', 'InvalidCode', 'InvalidCode', 'InvalidCode', 'TooManyAttempts'])
      expect(await enterCode(jar, email, code)).toBe('TooManyAttempts')
      expect(await jar.session()).toBeNull()
      expect(notes).toHaveLength(typeof adapter.useVerificationCode === 'function' ? 0 : 1)
      // The refusals are logged as the client-safe errors they are; nothing else was.
      expect(errors.filter((e) => !/^(InvalidCode|TooManyAttempts): /.test(e))).toEqual([])
      errors.length = 0
    })

    test('a due read extends the session, in the store and the cookie, and stays signed in', async () => {
      const { handler, clock, signInWithPassword } = server()
      const jar = new Jar(handler)
      const email = newEmail()
      await signInWithPassword(jar, email)
      const cookie = cookieOf(jar)
      clock.now += day + 60_000
      const res = await jar.get('/auth/session')
      const body = await res.json()
      expect(body?.user.email).toBe(email)
      const timing = parseTiming(res.headers.get(timingHeader))
      expect(timing?.expires).toBe(clock.now + 30 * day)
      expect(Date.parse(body.expires)).toBe(timing!.expires)
      expect(res.headers.getSetCookie().some((c) => c.startsWith(`${cookieName}=${cookie};`))).toBe(true)
      expect((await stored(cookie))!.session.expires.getTime()).toBe(timing!.expires)
      // And the next read, not due, still finds it.
      clock.now += 60_000
      expect((await jar.session())?.user.email).toBe(email)
    })

    test('a read after expiry deletes the session and clears the cookie', async () => {
      const { handler, clock, signInWithPassword } = server()
      const jar = new Jar(handler)
      await signInWithPassword(jar, newEmail())
      const cookie = cookieOf(jar)
      clock.now += 30 * day
      expect(await jar.session()).toBeNull()
      expect(jar.cookies.has(cookieName)).toBe(false)
      expect(await stored(cookie)).toBeNull()
    })

    test('sign-out deletes the session', async () => {
      const { handler, signInWithEmail } = server()
      const jar = new Jar(handler)
      await signInWithEmail(jar, newEmail())
      const cookie = cookieOf(jar)
      const res = await jar.postForm('/auth/signout', { csrfToken: await jar.csrf() })
      expect(res.status).toBe(302)
      expect(await stored(cookie)).toBeNull()
      expect(await jar.session()).toBeNull()
    })

    test('signing in again, with a password or an email link, deletes the session it replaces', async () => {
      const { handler, signInWithPassword, signInWithEmail } = server()
      const jar = new Jar(handler)
      const email = newEmail()
      await signInWithPassword(jar, email)
      const first = cookieOf(jar)
      await signInWithPassword(jar, email)
      const second = cookieOf(jar)
      expect(second).not.toBe(first)
      expect(await stored(first)).toBeNull()
      await signInWithEmail(jar, newEmail())
      expect(cookieOf(jar)).not.toBe(second)
      expect(await stored(second)).toBeNull()
      expect(await stored(cookieOf(jar))).not.toBeNull()
    })
  })
}
