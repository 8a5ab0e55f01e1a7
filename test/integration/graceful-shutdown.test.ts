/**
 * SIGTERM to a latchkey process under load (test/support/server-process.ts, which wires
 * latchkey/node's gracefulShutdown with a 2 s drain): readiness answers 503 at once while every
 * other request is still answered, with `Connection: close`; the clients, like a load balancer's,
 * stop sending shortly after the check fails; the process then closes its socket and exits 0.
 * Not one request that reached it failed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { needsService } from '../support/needs-service.js'
import { startServer, stopServer, type ServerProcess } from '../support/server-processes.js'
import { cookiesOf, keepAliveClient, poll, steadyLoad, type Answer } from '../support/steady-load.js'

const url = needsService('DATABASE_URL', 'graceful shutdown suite', 'postgres://postgres@127.0.0.1:5432/test', 'test/integration/graceful-shutdown.test.ts')!
const drainMs = 2000
/** How long the clients keep sending after the check first fails: a load balancer's `inter × fall`. */
const noticeMs = 500

let schema: IsolatedSchema
let server: ServerProcess
beforeAll(async () => {
  schema = await createIsolatedSchema(url)
  server = await startServer({ DATABASE_URL: url, LATCHKEY_TEST_SCHEMA: schema.name, AUTH_SECRET: 'graceful-shutdown-secret-0123456789abcdef', LATCHKEY_DRAIN_MS: String(drainMs) })
}, 60_000)
afterAll(async () => {
  await stopServer(server)
  await schema?.drop()
})

/**
 * The check meets a closed socket: refused, or reset when it was in the listen queue as the server
 * closed it (it never reached the process). The load's own requests stopped long before.
 */
const gone = (answer: Answer) => answer.error === 'ECONNREFUSED' || answer.error === 'ECONNRESET'

describe('SIGTERM under load', () => {
  test('readiness fails first, every request that reached the process is answered, then it closes and exits 0', async () => {
    const clients = keepAliveClient(server.port, 4)
    const checker = keepAliveClient(server.port, 1)
    // A signed-in user: every read goes to the database.
    const csrf = await clients.send('/auth/csrf')
    const csrfToken = (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken
    const signIn = await clients.send('/auth/callback/credentials', {
      method: 'POST',
      headers: { cookie: cookiesOf(csrf), 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
      body: new URLSearchParams({ csrfToken, username: 'ada', password: 'lovelace' }).toString(),
    })
    expect(signIn.status).toBe(200)
    const cookie = cookiesOf(signIn)

    let signalled = Infinity
    let stopAt = Infinity
    const checks = poll(
      () => checker.send('/auth/health/ready'),
      50,
      (last) => {
        // The load balancer takes the server out a little after its check first fails.
        if (last.status === 503 && stopAt === Infinity) stopAt = Date.now() + noticeMs
        return gone(last)
      },
    )
    const load = steadyLoad((i) => clients.send(i % 5 === 4 ? '/auth/csrf' : '/auth/session', { headers: { cookie } }), 4, () => Date.now() >= stopAt)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    signalled = Date.now()
    server.child.kill('SIGTERM')
    const [answers, readiness, code] = await Promise.all([load, checks, server.exited])
    clients.close()
    checker.close()

    expect(code).toBe(0)
    // Every request the clients sent was answered, and answered well.
    expect(answers.filter((a) => a.error !== undefined || a.status !== 200)).toEqual([])
    const duringDrain = answers.filter((a) => a.at > signalled)
    console.log(`${answers.length} requests, ${duringDrain.length} of them sent while draining; ${readiness.length} readiness checks`)
    expect(answers.filter((a) => a.at < signalled).length).toBeGreaterThan(10)
    expect(duringDrain.length).toBeGreaterThan(10)
    // From the drain on, every answer lets its connection go.
    const firstFailing = readiness.find((a) => a.status === 503)!
    expect(answers.filter((a) => a.at >= firstFailing.end && a.connection !== 'close')).toEqual([])
    expect(answers.some((a) => a.at < signalled && a.connection === 'keep-alive')).toBe(true)

    // Readiness: 200 until the signal, 503 from it, then the socket closed, drainMs later.
    const before = readiness.filter((a) => a.end < signalled)
    expect(before.length).toBeGreaterThan(3)
    expect(before.every((a) => a.status === 200)).toBe(true)
    expect(firstFailing.at).toBeGreaterThanOrEqual(before.at(-1)!.at)
    const closed = readiness.find(gone)!
    expect(readiness.filter((a) => a.at > firstFailing.at && a.at < closed.at).every((a) => a.status === 503)).toBe(true)
    expect(closed.at - firstFailing.end).toBeGreaterThan(drainMs - 500)
    expect(readiness.filter((a) => a.error !== undefined && a !== closed)).toEqual([])
    expect(JSON.parse(firstFailing.body)).toEqual({ status: 'not ready' })
    expect(server.stderr.filter((line) => line.startsWith('error'))).toEqual([])
  }, 60_000)
})
