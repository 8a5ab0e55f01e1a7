/**
 * Several servers, one database (issue 4): two latchkey processes on one PostgreSQL schema with
 * one secret. A browser's cookies go to both (cookies are per host, not per port), and each step
 * of a session's life happens on the server that did not start it, so nothing may live only in
 * one process's memory. The processes read their clock offset from one file the test writes.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { parseTiming, timingHeader } from '../../src/core/session-rule.js'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { linkPageForm } from '../support/email-link.js'
import { Jar } from '../support/jar.js'
import { secretOf, totp } from '../support/totp.js'
import { needsService } from '../support/needs-service.js'
import { startServer, stopServer, type ServerProcess } from '../support/server-processes.js'

const url = needsService('DATABASE_URL', 'multi-server suite (issue 4)', 'postgres://postgres@127.0.0.1:5432/test', 'test/integration')
const secret = 'multi-server-secret-0123456789-abcdef'
const day = 86_400_000
/** Where the browser thinks it is: both processes sit "behind one load balancer" at this origin. */
const publicOrigin = 'http://app.test'

/** Clicks the button of a sign-in link's page, posting to `server` (the page names the public origin, which no test host answers). */
async function clickOn(server: ServerProcess, browser: Jar, page: Response): Promise<Response> {
  const form = (await linkPageForm(page))!
  const action = new URL(form.action)
  return browser.postForm(`${server.origin}${action.pathname}`, form.fields, { 'sec-fetch-site': 'same-origin' })
}

if (url) {
  describe('two server processes, one PostgreSQL database', () => {
    let schema: IsolatedSchema
    let dir: string
    let clockFile: string
    let a: ServerProcess
    let b: ServerProcess
    const fetcher = (request: Request) => fetch(request, { redirect: 'manual' })
    const setClock = (offset: number) => writeFile(clockFile, String(offset))
    const sessionRows = async (userId: string) => {
      const pool = schema.pgPool(1)
      const { rows } = await pool.query<{ session_token: string; expires: Date }>('SELECT session_token, expires FROM sessions WHERE user_id = $1', [userId])
      await pool.end()
      return rows
    }

    beforeAll(async () => {
      schema = await createIsolatedSchema(url)
      dir = await mkdtemp(join(tmpdir(), 'latchkey-multi-'))
      clockFile = join(dir, 'clock-offset')
      await setClock(0)
      const env = { DATABASE_URL: url, LATCHKEY_TEST_SCHEMA: schema.name, AUTH_SECRET: secret, LATCHKEY_CLOCK_FILE: clockFile, LATCHKEY_ORIGIN: publicOrigin }
      // Both start at once: both migrate the empty schema, and the migration lock lets one win.
      ;[a, b] = await Promise.all([startServer(env), startServer(env)])
    }, 60_000)
    afterEach(() => setClock(0))
    afterAll(async () => {
      await Promise.all([stopServer(a), stopServer(b)])
      await schema?.drop()
      if (dir) await rm(dir, { recursive: true, force: true })
    })

    test('the two processes are distinct and both answer', async () => {
      expect(a.origin).not.toBe(b.origin)
      expect(a.child.pid).not.toBe(b.child.pid)
      for (const server of [a, b]) expect((await fetch(`${server.origin}/auth/providers`)).status).toBe(200)
    })

    test('a session made on A is read on B, extended on B when due, seen extended on A, and signed out on B', async () => {
      const jar = new Jar(fetcher, a.origin)
      const signIn = await jar.postForm(`${a.origin}/auth/callback/credentials`, { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
      expect(signIn.status).toBe(302)
      const created = parseTiming(signIn.headers.get(timingHeader))!
      expect(created).not.toBeNull()

      // B reads it; not due yet, so B writes nothing.
      const readOnB = await jar.get(`${b.origin}/auth/session`)
      expect(readOnB.headers.getSetCookie()).toEqual([])
      const sessionOnB = await readOnB.json()
      expect(sessionOnB.user).toMatchObject({ name: 'Ada', email: 'ada@example.com' })
      expect(Date.parse(sessionOnB.expires)).toBe(created.expires)

      // Past updateAge: B extends it, in the database, for both.
      await setClock(day + 60_000)
      const extendOnB = await jar.get(`${b.origin}/auth/session`)
      const extended = parseTiming(extendOnB.headers.get(timingHeader))!
      expect(extended.expires).toBeGreaterThanOrEqual(created.expires + day + 60_000)
      expect(extendOnB.headers.getSetCookie().some((c) => c.startsWith('latchkey.session-token='))).toBe(true)
      expect(Date.parse((await extendOnB.json()).expires)).toBe(extended.expires)
      const [row] = await sessionRows('user-ada')
      expect(row!.expires.getTime()).toBe(extended.expires)
      const readOnA = await jar.get(`${a.origin}/auth/session`)
      expect(readOnA.headers.getSetCookie()).toEqual([]) // A sees B's extension, so it is not due for A either
      expect(Date.parse((await readOnA.json()).expires)).toBe(extended.expires)

      // The CSRF token A issued is good on B; B signs out; A sees no session.
      const signOut = await jar.postForm(`${b.origin}/auth/signout`, { csrfToken: await jar.csrf() })
      expect(signOut.status).toBe(302)
      expect(await sessionRows('user-ada')).toEqual([])
      const token = [...jar.cookies.keys()].find((k) => k.includes('session-token'))
      expect(token).toBeUndefined()
      expect(await jar.session()).toBeNull()
    })

    test('a session cookie replayed after sign-out on the other server reads as no session there', async () => {
      const jar = new Jar(fetcher, b.origin)
      await jar.postForm(`${b.origin}/auth/callback/credentials`, { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
      const stolen = new Map(jar.cookies)
      await jar.postForm(`${b.origin}/auth/signout`, { csrfToken: await jar.csrf() })
      const replay = new Jar(fetcher, a.origin)
      stolen.forEach((v, k) => replay.cookies.set(k, v))
      expect(await replay.session()).toBeNull()
    })

    test('a session that expired is removed by whichever server sees it next', async () => {
      const jar = new Jar(fetcher, a.origin)
      await jar.postForm(`${a.origin}/auth/callback/credentials`, { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
      expect(await sessionRows('user-ada')).toHaveLength(1)
      await setClock(31 * day)
      const res = await jar.get(`${b.origin}/auth/session`)
      expect(await res.json()).toBeNull()
      expect(parseTiming(res.headers.get(timingHeader))).toBeNull()
      expect(await sessionRows('user-ada')).toEqual([])
    })

    test('an email sign-in started on A is finished on B, and its link works only once across both', async () => {
      const jar = new Jar(fetcher, a.origin)
      const start = await jar.postForm(`${a.origin}/auth/signin/email`, { csrfToken: await jar.csrf(), email: 'Lin@Example.com', callbackUrl: '/welcome' })
      expect(start.status).toBe(302)
      await expect.poll(() => a.emails.length).toBe(1)
      expect(b.emails).toEqual([])
      const link = new URL(a.emails[0]!)
      expect(link.origin).toBe(publicOrigin)
      const onB = `${b.origin}${link.pathname}${link.search}`

      const finish = await jar.get(onB)
      expect(finish.status).toBe(302)
      expect(finish.headers.get('location')).toBe(`${publicOrigin}/welcome`)
      const session = await (await jar.get(`${a.origin}/auth/session`)).json()
      expect(session.user.email).toBe('lin@example.com')

      // The token was used on B: on A, another browser gets the link's page, and its click is refused.
      const again = new Jar(fetcher, a.origin)
      const page = await again.get(`${a.origin}${link.pathname}${link.search}`)
      expect(page.status).toBe(200)
      const replay = await clickOn(a, again, page)
      expect(replay.status).toBe(302)
      expect(replay.headers.get('location')).toMatch(/\/auth\/error\?error=Verification$/)
      expect(await again.session()).toBeNull()
    })

    test('an email link raced on both servers at once signs in exactly once', async () => {
      const jar = new Jar(fetcher, b.origin)
      await jar.postForm(`${b.origin}/auth/signin/email`, { csrfToken: await jar.csrf(), email: 'race@example.com' })
      await expect.poll(() => b.emails.length).toBe(1)
      const link = new URL(b.emails[0]!)
      // Four browsers on the link's page, all clicking at once, two on each server.
      const pages = await Promise.all([a, b, a, b].map(async (server) => {
        const browser = new Jar(fetcher, server.origin)
        return { server, browser, page: await browser.get(`${server.origin}${link.pathname}${link.search}`) }
      }))
      const results = await Promise.all(
        pages.map(async ({ server, browser, page }) => {
          const res = await clickOn(server, browser, page)
          return res.headers.getSetCookie().some((c) => c.startsWith('latchkey.session-token=') && !/Max-Age=0/.test(c))
        }),
      )
      expect(results.filter(Boolean)).toHaveLength(1)
    })

    test('two browsers each opening their own email link for one new address at once, on the two servers, are both signed in as its one user', async () => {
      const browsers = [a, b].map((server) => ({ server, jar: new Jar(fetcher, server.origin), sent: server.emails.length }))
      for (const { server, jar } of browsers) await jar.postForm(`${server.origin}/auth/signin/email`, { csrfToken: await jar.csrf(), email: 'twin@example.com', callbackUrl: '/in' })
      for (const { server, sent } of browsers) await expect.poll(() => server.emails.length).toBe(sent + 1)
      const answers = await Promise.all(
        browsers.map(({ server, jar }) => {
          const link = new URL(server.emails.at(-1)!)
          return jar.get(`${server.origin}${link.pathname}${link.search}`)
        }),
      )
      expect(answers.map((r) => r.headers.get('location'))).toEqual([`${publicOrigin}/in`, `${publicOrigin}/in`])
      const users = await Promise.all(browsers.map(async ({ server, jar }) => (await (await jar.get(`${server.origin}/auth/session`)).json()).user.email))
      expect(users).toEqual(['twin@example.com', 'twin@example.com'])
      const pool = schema.pgPool(1)
      const { rows } = await pool.query<{ users: string; accounts: string }>(
        "SELECT (SELECT count(*) FROM users WHERE email = 'twin@example.com') AS users, (SELECT count(*) FROM accounts WHERE provider_account_id = 'twin@example.com') AS accounts",
      )
      await pool.end()
      expect(rows[0]).toEqual({ users: '1', accounts: '1' })
    })

    test('20 wrong codes in parallel across both servers: never more than 5 are judged, and the code is burned', async () => {
      const asking = new Jar(fetcher, a.origin)
      const before = a.codes.length
      await asking.postForm(`${a.origin}/auth/signin/email`, { csrfToken: await asking.csrf(), email: 'guessed@example.com' })
      await expect.poll(() => a.codes.length).toBe(before + 1)
      const code = a.codes.at(-1)!
      const wrong = code === '000000' ? '111111' : '000000'
      const guessers = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
        const server = i % 2 ? a : b
        const jar = new Jar(fetcher, server.origin)
        return { server, jar, csrfToken: await jar.csrf() }
      }))
      const answers = await Promise.all(
        guessers.map(async ({ server, jar, csrfToken }) => {
          const res = await jar.postForm(`${server.origin}/auth/callback/email`, { csrfToken, email: 'guessed@example.com', code: wrong }, { 'x-auth-return-redirect': '1' })
          return ((await res.json()) as { error?: string }).error
        }),
      )
      // Each of the first five attempts counted was judged wrong; every other one found the code burned.
      expect(answers.filter((e) => e === 'InvalidCode').length).toBeLessThanOrEqual(4)
      expect(answers.every((e) => e === 'InvalidCode' || e === 'TooManyAttempts')).toBe(true)
      expect(answers.filter((e) => e === 'TooManyAttempts').length).toBeGreaterThanOrEqual(16)
      // The right code now comes too late, on either server.
      const late = new Jar(fetcher, b.origin)
      const res = await late.postForm(`${b.origin}/auth/callback/email`, { csrfToken: await late.csrf(), email: 'guessed@example.com', code }, { 'x-auth-return-redirect': '1' })
      expect(((await res.json()) as { error?: string }).error).toBe('TooManyAttempts')
    })

    test('one recovery code used on both servers at once completes exactly one sign-in', async () => {
      const enrolling = new Jar(fetcher, a.origin)
      const signIn = (jar: Jar, server: ServerProcess) => jar.csrf().then((csrfToken) => jar.postForm(`${server.origin}/auth/callback/credentials`, { csrfToken, username: 'mia', password: 'mia-pw' }))
      await signIn(enrolling, a)
      const mfa = async (fields: Record<string, string>) => (await enrolling.postForm(`${a.origin}/auth/mfa`, { csrfToken: await enrolling.csrf(), ...fields })).json()
      const started = (await mfa({ action: 'enroll' })) as { factor: { id: string }; uri: string }
      const confirmed = (await mfa({ action: 'confirm', id: started.factor.id, code: totp(secretOf(started.uri), Date.now()) })) as { newRecoveryCodes: string[] }
      const recoveryCode = confirmed.newRecoveryCodes[0]!
      // Two browsers, each past the password on its own server, waiting for the second factor.
      const [onA, onB] = [new Jar(fetcher, a.origin), new Jar(fetcher, b.origin)]
      await Promise.all([signIn(onA, a), signIn(onB, b)])
      const tokens = await Promise.all([onA.csrf(), onB.csrf()])
      const answers = await Promise.all(
        ([[onA, a, tokens[0]], [onB, b, tokens[1]]] as const).map(([jar, server, csrfToken]) =>
          jar.postForm(`${server.origin}/auth/mfa/verify`, { csrfToken, recoveryCode }, { 'x-auth-return-redirect': '1' }).then((r) => r.status),
        ),
      )
      expect(answers.sort()).toEqual([200, 400])
    })

    test('neither process logged an error', () => {
      const errors = [...a.stderr, ...b.stderr].filter((line) => line.startsWith('error'))
      expect(errors).toEqual([])
    })
  })

  describe('two server processes with rateLimit: false, one PostgreSQL database', () => {
    let schema: IsolatedSchema
    let c: ServerProcess
    let d: ServerProcess
    const fetcher = (request: Request) => fetch(request, { redirect: 'manual' })
    const signIn = (jar: Jar, server: ServerProcess) => jar.csrf().then((csrfToken) => jar.postForm(`${server.origin}/auth/callback/credentials`, { csrfToken, username: 'mia', password: 'mia-pw' }))
    const verify = async (jar: Jar, server: ServerProcess, fields: Record<string, string>) =>
      jar.postForm(`${server.origin}/auth/mfa/verify`, { csrfToken: await jar.csrf(), ...fields }, { 'x-auth-return-redirect': '1' })
    const hasSessionCookie = (res: Response) => res.headers.getSetCookie().some((cookie) => cookie.startsWith('latchkey.session-token=') && !/Max-Age=0/.test(cookie))

    beforeAll(async () => {
      schema = await createIsolatedSchema(url)
      const env = { DATABASE_URL: url, LATCHKEY_TEST_SCHEMA: schema.name, AUTH_SECRET: secret, LATCHKEY_ORIGIN: publicOrigin, LATCHKEY_RATE_LIMIT: 'off' }
      ;[c, d] = await Promise.all([startServer(env), startServer(env)])
    }, 60_000)
    afterAll(async () => {
      await Promise.all([stopServer(c), stopServer(d)])
      await schema?.drop()
    })

    test('five wrong second-factor codes alternated across both servers void the pending sign-in; the sixth, right, is refused', async () => {
      const enrolling = new Jar(fetcher, c.origin)
      await signIn(enrolling, c)
      const mfa = async (fields: Record<string, string>) => (await enrolling.postForm(`${c.origin}/auth/mfa`, { csrfToken: await enrolling.csrf(), ...fields })).json()
      const started = (await mfa({ action: 'enroll' })) as { factor: { id: string }; uri: string }
      const confirmed = (await mfa({ action: 'confirm', id: started.factor.id, code: totp(secretOf(started.uri), Date.now()) })) as { newRecoveryCodes: string[] }
      const [first, second] = confirmed.newRecoveryCodes as [string, string]
      const wrong = { recoveryCode: 'AAAAA-AAAAA' }

      // Four wrong, alternated, then a right one: the count allows five.
      const allowed = new Jar(fetcher, c.origin)
      await signIn(allowed, c)
      for (const server of [c, d, c, d]) expect(((await (await verify(allowed, server, wrong)).json()) as { error?: string }).error).toBe('InvalidCode')
      const fifth = await verify(allowed, d, { recoveryCode: first })
      expect(fifth.status).toBe(200)
      expect(hasSessionCookie(fifth)).toBe(true)

      // Five wrong, alternated: each server saw only two or three, but the store saw five.
      const attacked = new Jar(fetcher, c.origin)
      await signIn(attacked, c)
      for (const server of [c, d, c, d, c]) expect(((await (await verify(attacked, server, wrong)).json()) as { error?: string }).error).toBe('InvalidCode')
      const sixth = await verify(attacked, d, { recoveryCode: second })
      expect(((await sixth.json()) as { error?: string }).error).toBe('InvalidCode')
      expect(hasSessionCookie(sixth)).toBe(false)
      // The pending sign-in is void, not waiting: the same right code on the first server is refused too.
      expect(((await (await verify(attacked, c, { recoveryCode: second })).json()) as { error?: string }).error).toBe('InvalidCode')
    })

    test('neither process logged an error', () => {
      expect([...c.stderr, ...d.stderr].filter((line) => line.startsWith('error'))).toEqual([])
    })
  })
}
