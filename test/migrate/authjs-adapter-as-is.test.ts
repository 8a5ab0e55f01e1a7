/**
 * An Auth.js adapter plugged in as it is, with an Auth.js configuration as it is (the default
 * `Email()`, codes on), served over real HTTP: `@auth/pg-adapter` on PostgreSQL (DATABASE_URL)
 * and on PGlite. It has no code methods, so the codes are kept in its verification tokens
 * (src/server/kernel/codes-in-tokens.ts): the server starts, says so once, signs in by link and
 * by code, and a code's tries stay bounded, across two servers on one database too. The ways in
 * that need methods such an adapter truly lacks (passwords, second factors) name those alone.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import PgAdapter from '@auth/pg-adapter'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Adapter, SendVerificationRequestParams } from '../../src/core/types.js'
import Email from '../../src/providers/email.js'
import Password from '../../src/providers/password.js'
import { toNodeHandler } from '../../src/node/index.js'
import { Latchkey } from '../../src/server/index.js'
import { Phone } from 'latchkey/plugins/phone'
import { createIsolatedSchema } from '../adapters/isolated-schema.js'
import { pgAdapterSchema } from '../support/authjs-pg-schema.js'
import { followEmailLink } from '../support/email-link.js'
import { Jar } from '../support/jar.js'
import { needsService } from '../support/needs-service.js'
import { testSecret } from '../support/server.js'

const url = needsService('DATABASE_URL', '@auth/pg-adapter on PostgreSQL (PGlite ran)', 'postgres://postgres@127.0.0.1:5432/test', 'test/migrate/authjs-adapter-as-is.test.ts')

interface Store {
  name: string
  /** Two adapters over one database, as two servers have; and a way to read its rows. */
  open(): Promise<{ adapters: [Adapter, Adapter]; query: (sql: string, params?: unknown[]) => Promise<{ rows: any[] }>; close: () => Promise<unknown> }>
}

/** PGlite as the node-postgres pool @auth/pg-adapter expects. */
function pgShaped(db: PGlite): pg.Pool {
  const query = async (sql: string, params?: unknown[]) => {
    const result = await db.query(sql, params as any[])
    return { rows: result.rows, rowCount: Math.max(result.rows.length, result.affectedRows ?? 0) }
  }
  return { query } as unknown as pg.Pool
}

const stores: Store[] = [
  {
    name: '@auth/pg-adapter on PGlite',
    async open() {
      const db = await PGlite.create()
      for (const statement of pgAdapterSchema) await db.query(statement)
      const pool = pgShaped(db)
      return { adapters: [PgAdapter(pool) as Adapter, PgAdapter(pool) as Adapter], query: (sql, params) => pool.query(sql, params), close: () => db.close() }
    },
  },
]
if (url) {
  stores.push({
    name: '@auth/pg-adapter on PostgreSQL',
    async open() {
      const schema = await createIsolatedSchema(url)
      const pool = schema.pgPool(4)
      for (const statement of pgAdapterSchema) await pool.query(statement)
      return { adapters: [PgAdapter(pool) as Adapter, PgAdapter(schema.pgPool(4)) as Adapter], query: (sql, params) => pool.query(sql, params as unknown[]), close: () => schema.drop() }
    },
  })
}

const asJson = { 'x-auth-return-redirect': '1' }
const newEmail = () => `u-${randomUUID()}@example.com`

for (const store of stores) {
  describe(`an Auth.js adapter as it is: ${store.name}, over HTTP`, () => {
    let opened: Awaited<ReturnType<Store['open']>>
    const servers: Server[] = []
    /** How many times a code was looked for in the store (`code:<address>`), by either server. */
    let weighed = 0
    const outbox: SendVerificationRequestParams[] = []
    const errors: string[] = []
    const warnings: string[] = []
    const origins: string[] = []

    /** The adapter as plugged in, with its looks for a code counted. */
    function counted(adapter: Adapter): Adapter {
      const use = adapter.useVerificationToken!.bind(adapter)
      return {
        ...adapter,
        useVerificationToken: (params) => {
          if (params.identifier.startsWith('code:')) weighed++
          return use(params)
        },
      }
    }

    beforeAll(async () => {
      opened = await store.open()
      for (const adapter of opened.adapters) {
        // What an Auth.js app has: an adapter and an email provider, nothing latchkey's own.
        const handler = Latchkey({
          secret: testSecret,
          adapter: counted(adapter),
          providers: [Email({ sendVerificationRequest: (params) => void outbox.push(params) })],
          rateLimit: false,
          logger: { error: (e) => errors.push(`${e.name}: ${e.message}`), warn: (w) => warnings.push(w), debug: () => {} },
        })
        const server = createServer(toNodeHandler(handler))
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
        servers.push(server)
        origins.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
      }
    }, 60_000)
    afterAll(async () => {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
      await opened?.close()
    })

    const browser = (which = 0) => new Jar((request) => fetch(request, { redirect: 'manual' }), origins[which])
    const lastFor = (email: string) => outbox.filter((m) => m.identifier === email).at(-1)!

    async function ask(jar: Jar, email: string) {
      const res = await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email, callbackUrl: '/home' })
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe(`${jar.origin}/auth/verify-request?provider=email&type=email`)
      return lastFor(email)
    }

    async function enter(jar: Jar, email: string, code: string): Promise<string> {
      const res = await jar.postForm('/auth/callback/email', { csrfToken: await jar.csrf(), email, code, callbackUrl: '/home' }, asJson)
      const body = (await res.json()) as { url: string; error?: string }
      return body.error ?? (body.url === `${jar.origin}/home` ? 'signed in' : body.url)
    }

    it('starts with the default Email(), saying once, at start-up, what the two code methods would bring; nothing else is logged', () => {
      // One note per server, each said once.
      expect(warnings).toHaveLength(2)
      for (const note of warnings) {
        expect(note).toMatch(/^CodesInVerificationTokens: the adapter has no createVerificationCode and useVerificationCode/)
        expect(note).toMatch(/adding the two methods keeps one row per code instead of one per try, deletes a replaced code at once/)
      }
      expect(errors).toEqual([])
    })

    it('the link signs in, end to end: the address is asked, the emailed link followed, the session read', async () => {
      const jar = browser()
      const email = newEmail()
      const mail = await ask(jar, email)
      expect(mail.code).toMatch(/^\d{6}$/)
      const link = new URL(mail.url)
      expect(link.origin).toBe(jar.origin)
      const res = await jar.get(link.pathname + link.search)
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe(`${jar.origin}/home`)
      const session = await jar.session()
      expect(session.user.email).toBe(email)
      // The user is Auth.js's row, its address proven.
      const { rows } = await opened.query(`SELECT "emailVerified" FROM users WHERE email = $1`, [email])
      expect(rows[0].emailVerified).toBeInstanceOf(Date)
      // The link works once: another browser, clicking through its page, is refused.
      const again = await followEmailLink(browser(), link.pathname + link.search)
      expect(again.headers.get('location')).toBe(`${jar.origin}/auth/error?error=Verification`)
    })

    it('the code signs in another browser, once; the store holds no plain code', async () => {
      const email = newEmail()
      const { code } = await ask(browser(), email)
      const laptop = browser(1)
      expect(await enter(laptop, email, code!)).toBe('signed in')
      expect((await laptop.session()).user.email).toBe(email)
      expect(await enter(browser(), email, code!)).toBe('InvalidCode')
      const { rows } = await opened.query(`SELECT token FROM verification_token WHERE identifier LIKE '%' || $1`, [email])
      expect(rows.map((r) => r.token)).not.toContain(code)
    })

    it('a code typed wrong five times is dead: the right one is then TooManyAttempts; a new code starts afresh, the old one stays dead', async () => {
      const email = newEmail()
      const { code } = await ask(browser(), email)
      const wrong = code === '000000' ? '111111' : '000000'
      const jar = browser()
      const answers = []
      // Alternating servers: the count is the store's, not a process's.
      for (let i = 0; i < 5; i++) answers.push(await enter(browser(i % 2), email, wrong))
      expect(answers).toEqual(['InvalidCode', 'InvalidCode', 'InvalidCode', 'InvalidCode', 'TooManyAttempts'])
      expect(await enter(jar, email, code!)).toBe('TooManyAttempts')
      expect(await jar.session()).toBeNull()
      const fresh = (await ask(browser(), email)).code!
      if (fresh !== code) expect(await enter(jar, email, code!)).toBe('InvalidCode')
      expect(await enter(jar, email, fresh)).toBe('signed in')
    })

    it('twenty wrong codes and the right one at once, across both servers: the code is looked for five times at most', async () => {
      const email = newEmail()
      const { code } = await ask(browser(), email)
      const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0')
      const jars = Array.from({ length: 21 }, (_, i) => browser(i % 2))
      const csrf = await Promise.all(jars.map((jar) => jar.csrf()))
      weighed = 0
      const answers = await Promise.all(
        jars.map(async (jar, i) => {
          const res = await jar.postForm('/auth/callback/email', { csrfToken: csrf[i], email, code: i === 20 ? code! : wrong(i) }, asJson)
          return ((await res.json()) as { error?: string }).error ?? 'signed in'
        }),
      )
      expect(weighed).toBe(5)
      expect(answers.filter((a) => a === 'signed in').length).toBeLessThanOrEqual(1)
      expect(answers.filter((a) => !['signed in', 'InvalidCode', 'TooManyAttempts'].includes(a))).toEqual([])
      expect(['InvalidCode', 'TooManyAttempts']).toContain(await enter(browser(), email, code!))
      expect(weighed).toBe(5)
    })

    it('phone sign-in by a texted code works on it too, its tries bounded the same way', async () => {
      const texts: { to: string; text: string }[] = []
      const notes: string[] = []
      const handler = Latchkey({
        secret: testSecret,
        adapter: opened.adapters[0],
        providers: [Phone({ sendSms: async (to, text) => void texts.push({ to, text }), defaultCountry: 'US' })],
        rateLimit: false,
        logger: { error: (e) => notes.push(`error ${e.message}`), warn: (w) => notes.push(w), debug: () => {} },
      })
      expect(notes).toEqual([expect.stringMatching(/^CodesInVerificationTokens: /)])
      const phone = `+1415555${String(Date.now() % 10_000).padStart(4, '0')}`
      const send = async (jar: Jar) => {
        await jar.postForm('/auth/signin/phone', { csrfToken: await jar.csrf(), phone }, asJson)
        await handler.settled()
        return texts.at(-1)!.text.slice(0, 6)
      }
      const enterPhone = async (jar: Jar, code: string) => {
        const res = await jar.postForm('/auth/callback/phone', { csrfToken: await jar.csrf(), phone, code, callbackUrl: '/home' }, asJson)
        return ((await res.json()) as { error?: string }).error ?? 'signed in'
      }
      const jar = new Jar(handler)
      const code = await send(jar)
      const wrong = code === '000000' ? '111111' : '000000'
      const answers = []
      for (let i = 0; i < 5; i++) answers.push(await enterPhone(jar, wrong))
      expect(answers).toEqual(['InvalidCode', 'InvalidCode', 'InvalidCode', 'InvalidCode', 'TooManyAttempts'])
      expect(await enterPhone(jar, code)).toBe('TooManyAttempts')
      expect(await enterPhone(jar, await send(jar))).toBe('signed in')
      expect((await jar.session()).user.id).toBeTruthy()
    })

    it('passwords and second factors, which need methods it truly lacks, name those alone at start-up, not the code methods', () => {
      const adapter = opened.adapters[0]
      const password = () => Latchkey({ secret: testSecret, adapter, providers: [Password({ sendEmail: () => {} })], logger: { error: () => {}, warn: () => {}, debug: () => {} } })
      expect(password).toThrow(/the Password provider "password" needs the adapter methods getPasswordHash, setPasswordHash; /)
      expect(password).not.toThrow(/VerificationCode/)
      const mfa = () => Latchkey({ secret: testSecret, adapter, mfa: true, providers: [Email({ sendVerificationRequest: () => {} })], logger: { error: () => {}, warn: () => {}, debug: () => {} } })
      expect(mfa).toThrow(/mfa needs the adapter methods createFactor, /)
      expect(mfa).not.toThrow(/VerificationCode/)
    })
  })
}
