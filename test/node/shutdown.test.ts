/**
 * latchkey/node's gracefulShutdown over real HTTP in this process: readiness fails at once, every
 * answer from then on (and those under way) says `Connection: close`, the server keeps answering
 * for `drainMs`, then takes no connection, waits for the requests under way, settles, runs
 * `afterClose`, and cuts what is left after `timeoutMs`. (test/integration/graceful-shutdown.test.ts
 * sends a real SIGTERM to a real process under load.)
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { gracefulShutdown, toNodeHandler } from '../../src/node/index.js'
import { testServer } from '../support/server.js'

interface Answer {
  status: number
  connection: string | undefined
  body: string
}

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A server with latchkey under /auth and /slow, which answers when the test says. */
async function start() {
  const { handler } = testServer()
  const latchkey = toNodeHandler(handler)
  const slow: Array<() => void> = []
  const arrived: Array<() => void> = []
  const server = createServer((req, res) => {
    if (req.url === '/slow') {
      slow.push(() => res.end('slow done'))
      arrived.splice(0).forEach((resolve) => resolve())
      return
    }
    void latchkey(req, res)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const agent = new Agent({ keepAlive: true, maxSockets: 4 })
  const get = (path: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res: IncomingMessage) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }))
      })
      req.on('error', reject)
      req.end()
    })
  const slowArrived = () => new Promise<void>((resolve) => arrived.push(resolve))
  return { handler, server, get, slow, slowArrived, agent }
}

describe('gracefulShutdown', () => {
  test('drains: readiness 503 and Connection: close at once, answers while draining, closes once the request under way ends', async () => {
    const app = await start()
    const closed: string[] = []
    const shutdown = gracefulShutdown(app.server, app.handler, { drainMs: 300, timeoutMs: 5000, signals: [], exit: false, afterClose: () => void closed.push('afterClose') })
    app.server.on('close', () => closed.push('server closed'))

    const before = await app.get('/auth/health/ready')
    expect(before).toMatchObject({ status: 200, connection: 'keep-alive' })
    const waiting = app.slowArrived()
    const underWay = app.get('/slow')
    await waiting

    expect(shutdown.draining).toBe(false)
    const done = shutdown.shutdown()
    expect(shutdown.draining).toBe(true)
    expect(shutdown.shutdown()).toBe(done)
    const ready = await app.get('/auth/health/ready')
    expect(ready).toMatchObject({ status: 503, connection: 'close' })
    expect(JSON.parse(ready.body)).toEqual({ status: 'not ready' })
    // Still answering everything else while the load balancer notices.
    expect(await app.get('/auth/health/live')).toMatchObject({ status: 200, connection: 'close' })
    expect(await app.get('/auth/providers')).toMatchObject({ status: 200, connection: 'close' })

    // Past drainMs the server takes no new connection, and waits for the one under way.
    await vi.waitUntil(() => !app.server.listening, { timeout: 5000 })
    await expect(app.get('/auth/health/live')).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    expect(closed).toEqual([])
    app.slow.shift()!()
    expect(await underWay).toEqual({ status: 200, connection: 'close', body: 'slow done' })
    await done
    expect(closed).toEqual(['server closed', 'afterClose'])
  })

  test('a request that does not end in timeoutMs has its connection cut, and the shutdown still ends', async () => {
    const app = await start()
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const waiting = app.slowArrived()
      const hung = app.get('/slow').catch((e: unknown) => e)
      await waiting
      const started = Date.now()
      await gracefulShutdown(app.server, app.handler, { drainMs: 50, timeoutMs: 400, signals: [], exit: false }).shutdown()
      expect(Date.now() - started).toBeGreaterThanOrEqual(400)
      expect(await hung).toMatchObject({ code: 'ECONNRESET' })
      expect(error.mock.calls.map((call) => String(call[0]))).toEqual(['latchkey: gracefulShutdown cut the connections still open after 400 ms'])
    } finally {
      error.mockRestore()
    }
  })

  test('the signals it is given start it; nothing happens before', async () => {
    const app = await start()
    const shutdown = gracefulShutdown(app.server, app.handler, { drainMs: 0, signals: ['SIGUSR2'], exit: false })
    expect((await app.get('/auth/health/ready')).status).toBe(200)
    expect(shutdown.draining).toBe(false)
    process.emit('SIGUSR2', 'SIGUSR2')
    expect(shutdown.draining).toBe(true)
    await vi.waitUntil(() => !app.server.listening, { timeout: 5000 })
    await shutdown.shutdown()
  })

  test('refuses a drain or timeout that is not a number of milliseconds', async () => {
    const app = await start()
    expect(() => gracefulShutdown(app.server, app.handler, { drainMs: -1, signals: [] })).toThrow('gracefulShutdown: expected drainMs to be a number of milliseconds >= 0, got -1')
    expect(() => gracefulShutdown(app.server, app.handler, { timeoutMs: Number.NaN, signals: [] })).toThrow('gracefulShutdown: expected timeoutMs to be a number of milliseconds >= 0, got NaN')
  })
})
