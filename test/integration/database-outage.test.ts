/**
 * PostgreSQL restarted under a latchkey process that is under load, on a cluster of the test's
 * own (`pg_ctlcluster ... restart -m fast`, which ends every connection): the process does not
 * exit; while the database is down every answer is 503 `StoreUnavailable` with Retry-After, never
 * a 500 nor a dropped connection, and readiness is 503; once it is back, readiness is 200 and
 * reads and sign-ins succeed again, from the same process.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createPgCluster, type PgCluster } from '../support/pg-cluster.js'
import { startServer, stopServer, type ServerProcess } from '../support/server-processes.js'
import { cookiesOf, keepAliveClient, poll, steadyLoad, type Answer } from '../support/steady-load.js'

let cluster: PgCluster | undefined
let server: ServerProcess | undefined
beforeAll(async () => {
  cluster = await createPgCluster('lkhealth', 5442)
  // per-account limits: sign-ins count in the store (the same database), and 127.0.0.1 is never refused.
  server = await startServer({ DATABASE_URL: cluster.url, AUTH_SECRET: 'database-outage-secret-0123456789abcdef', LATCHKEY_RATE_LIMIT: 'per-account' })
}, 120_000)
afterAll(async () => {
  await stopServer(server)
  await cluster?.drop()
}, 60_000)

describe('a PostgreSQL restart under load', () => {
  test('503 StoreUnavailable with Retry-After while it is down, never a 500; readiness follows; the same process serves after', async () => {
    const app = server!
    const clients = keepAliveClient(app.port, 4)
    const checker = keepAliveClient(app.port, 1)
    const csrf = await clients.send('/auth/csrf')
    const csrfToken = (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken
    // A write path: the rate-limit count, the user, the session.
    const signIn = () =>
      clients.send('/auth/callback/credentials', {
        method: 'POST',
        headers: { cookie: cookiesOf(csrf), 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
        body: new URLSearchParams({ csrfToken, username: 'ada', password: 'lovelace' }).toString(),
      })
    const first = await signIn()
    expect(first.status).toBe(200)
    const cookie = cookiesOf(first)
    const read = () => clients.send('/auth/session', { headers: { cookie } })

    let stopped = false
    // Reads and sign-ins each on loops of their own, so both meet the outage.
    const load = Promise.all([steadyLoad(read, 2, () => stopped), steadyLoad(signIn, 2, () => stopped)]).then(([reads, signIns]) => [...reads, ...signIns])
    const checks = poll(() => checker.send('/auth/health/ready'), 10, () => stopped)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const down = Date.now()
    await cluster!.restart()
    const up = Date.now()
    // Back: readiness and a read answer again, from the same process.
    await vi.waitUntil(async () => (await checker.send('/auth/health/ready')).status === 200 && (await read()).status === 200, { timeout: 15_000, interval: 100 })
    await new Promise((resolve) => setTimeout(resolve, 1000))
    stopped = true
    const [answers, readiness] = await Promise.all([load, checks])
    const lastRead = await read()
    const lastSignIn = await signIn()
    clients.close()
    checker.close()

    const refused = answers.filter((a) => a.status !== 200)
    console.log(`${answers.length} requests, ${refused.length} answered 503 in a ${up - down} ms restart; ${readiness.filter((a) => a.status === 503).length} of ${readiness.length} readiness checks failed`)
    // The process is up: nothing ended it, nothing restarted it.
    expect(app.child.exitCode).toBeNull()
    expect(app.child.signalCode).toBeNull()
    // No request went unanswered, none took longer than the pool's wait for a connection, none was a 500.
    expect(answers.filter((a: Answer) => a.error !== undefined)).toEqual([])
    expect(answers.filter((a) => a.end - a.at > 6000)).toEqual([])
    expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([])
    // The outage was met, and said as one: try again in a few seconds.
    expect(refused.length).toBeGreaterThan(0)
    for (const answer of refused) {
      expect(answer.retryAfter).toBe('3')
      expect((JSON.parse(answer.body) as { error: string }).error).toBe('StoreUnavailable')
      expect(answer.body).not.toMatch(/terminating|57P0|ECONNREFUSED|5442/)
    }
    expect(refused.some((a) => a.path === '/auth/session')).toBe(true)
    expect(refused.some((a) => a.path === '/auth/callback/credentials')).toBe(true)
    // Only inside the outage: from the restart until shortly after the database took queries again.
    expect(refused.filter((a) => a.end < down || a.at > up + 2000)).toEqual([])
    // Readiness: 200 before, 503 while down, 200 after.
    expect(readiness.filter((a) => a.error !== undefined)).toEqual([])
    expect(readiness.filter((a) => a.end < down).every((a) => a.status === 200)).toBe(true)
    expect(readiness.some((a) => a.status === 503 && a.at >= down && a.at <= up)).toBe(true)
    expect(readiness.at(-1)!.status).toBe(200)
    expect(lastRead.status).toBe(200)
    expect((JSON.parse(lastRead.body) as { user: { email: string } }).user.email).toBe('ada@example.com')
    expect(lastSignIn.status).toBe(200)
    // The log has the outage, as StoreUnavailable, and nothing else.
    const errors = app.stderr.filter((line) => line.startsWith('error'))
    expect(errors.length).toBeGreaterThan(0)
    expect(errors.filter((line) => !/^error (AdapterError|StoreUnavailable): (The database did not answer|The rate-limit store failed: The database did not answer|Readiness: the store did not answer)/.test(line))).toEqual([])
  }, 120_000)
})
