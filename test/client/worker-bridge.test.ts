/**
 * The page's worker bridge when its worker goes away: latchkey's worker code on a fake scope,
 * fake MessagePorts, one fake IndexedDB and fake time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAuthClient } from '../../src/client/create-auth-client.js'
import { workerBridge } from '../../src/client/worker-bridge.js'
import { alice, browserGlobals, closeChannels, fakeLocks, fakeServer, sessionUrl, settled, signedIn, until } from './support/browser-fakes.js'
import { FakeContainer, FakeMessageChannel, FakeWorker } from './support/fake-worker.js'

let container: FakeContainer
let server: ReturnType<typeof fakeServer>

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
  vi.setSystemTime(new Date('2026-03-01T09:00:00Z'))
  container = new FakeContainer()
  server = fakeServer()
  server.respond(() => signedIn())
  browserGlobals({ locks: fakeLocks().locks, serviceWorker: container })
  vi.stubGlobal('fetch', server.fetch)
  vi.stubGlobal('MessageChannel', FakeMessageChannel)
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  closeChannels()
})

/** A bridge bound to a worker that answered once; then the browser stops that worker. */
async function boundThenStopped() {
  const first = new FakeWorker()
  container.controller = first
  const bridge = workerBridge(sessionUrl)!
  expect((await settled(bridge.get())).session?.user).toEqual(alice)
  expect(first.calls).toBe(1)
  first.stop()
  return { bridge, first }
}

describe('worker bridge', () => {
  it('answers a call pending when the worker is replaced, from the new worker', async () => {
    const { bridge, first } = await boundThenStopped()
    const pending = bridge.get()
    const next = new FakeWorker()
    container.replace(next)
    // The call on the old port is lost; past its deadline it goes through the new controller.
    await vi.advanceTimersByTimeAsync(1000)
    expect((await settled(pending)).session?.user).toEqual(alice)
    expect(next.calls).toBe(1)
    expect(first.calls).toBe(1)
  })

  it('sends the next call to the new worker as soon as the controller changes', async () => {
    const { bridge } = await boundThenStopped()
    const next = new FakeWorker()
    container.replace(next)
    const pending = bridge.get()
    // Posted to the new controller at once, not first on the old worker's dead port.
    expect(next.connects).toBe(1)
    expect((await settled(pending)).session?.user).toEqual(alice)
    expect(next.calls).toBe(1)
  })

  it('wakes a stopped worker through its controller when a call goes unanswered', async () => {
    const { bridge, first } = await boundThenStopped()
    const pending = bridge.get()
    await vi.advanceTimersByTimeAsync(1000)
    await until(() => first.starts === 2)
    expect((await settled(pending)).session?.user).toEqual(alice)
    expect(first.connects).toBe(2)
  })

  it('fails a pending call once no worker controls the page, so the page answers itself', async () => {
    const { bridge } = await boundThenStopped()
    const pending = bridge.get()
    pending.catch(() => {})
    container.replace(null)
    await vi.advanceTimersByTimeAsync(1000)
    await expect(settled(pending)).rejects.toThrow('worker')
  })

  it('has the client read the session in the page when the worker goes away mid-call', async () => {
    // The page loaded before the session was read: the page's own engine may trust the shared record.
    vi.stubGlobal('performance', { timeOrigin: Date.now(), getEntriesByType: () => [] })
    vi.stubGlobal('addEventListener', () => {})
    const worker = new FakeWorker()
    container.controller = worker
    const client = createAuthClient({ basePath: '/auth' })
    expect((await settled(client.getSession()))?.user).toEqual(alice)
    const calls = worker.calls
    worker.stop()
    const pending = client.getSession()
    container.replace(null)
    await vi.advanceTimersByTimeAsync(1000)
    expect((await settled(pending))?.user).toEqual(alice)
    // Neither the stopped worker nor the server was asked: the page's engine read the shared record.
    expect(worker.calls).toBe(calls)
    expect(server.requests).toHaveLength(1)
  })
})
