/**
 * The session engine's rules, in Node: engines sharing one IndexedDB and one set of Web Locks are
 * tabs (and the worker) of one origin; the server answers when the test says; time is fake.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createEngine, lockDeadline, retryDelay } from '../../src/client/session-engine.js'
import type { SessionState } from '../../src/client/types.js'
import { formatTiming } from '../../src/core/session-rule.js'
import { alice, browserGlobals, closeChannels, dueIn, fakeLocks, fakeServer, sessionUrl, settled, signedIn, signedOut, until } from './support/browser-fakes.js'

/** Five minutes: how long a record with no session is trusted. */
const idle = 5 * 60_000
const retry = 5_000

beforeEach(() => {
  // IndexedDB's tasks run on setImmediate, which stays real: only the clock is the test's.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
  vi.setSystemTime(new Date('2026-03-01T09:00:00Z'))
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  closeChannels()
})

/** A page whose engine read a signed-in session, its record now due; `told` is every state it announced. */
async function signedInPastDue() {
  browserGlobals({ locks: fakeLocks().locks })
  const server = fakeServer()
  const told: SessionState[] = []
  const page = createEngine(sessionUrl, (state) => told.push(state), server.fetch)
  server.respond(() => signedIn())
  const known = (await settled(page.get())).session
  vi.advanceTimersByTime(dueIn)
  return { server, told, page, known }
}

describe('session engine', () => {
  it('makes one request per due window, whatever the number of tabs and calls', async () => {
    const lock = fakeLocks()
    browserGlobals({ locks: lock.locks })
    const server = fakeServer()
    const tabs = Array.from({ length: 4 }, () => createEngine(sessionUrl, undefined, server.fetch))
    const asks = tabs.flatMap((tab) => [tab.get(), tab.get(), tab.get()])
    await server.requested(1)
    // The three other tabs wait for the lock of the one asking, one ask each.
    await until(() => lock.waiting === 3)
    server.respond(() => signedIn())
    const states = await settled(Promise.all(asks))
    expect(server.requests).toHaveLength(1)
    for (const state of states) expect(state.session?.user).toEqual(alice)

    // Until the session falls due every tab answers from the shared record.
    vi.advanceTimersByTime(dueIn - 1)
    await settled(Promise.all(tabs.flatMap((tab) => [tab.get(), tab.get()])))
    expect(server.requests).toHaveLength(1)

    vi.advanceTimersByTime(1)
    const next = await settled(Promise.all(tabs.flatMap((tab) => [tab.get(), tab.get()])))
    expect(server.requests).toHaveLength(2)
    for (const state of next) expect(state.due).toBe(Date.now() + dueIn)
  })

  it('an ask after the answer was written, while the lock is still being let go, reads the store and asks anew', async () => {
    let letGo!: () => void
    const releasing = new Promise<void>((resolve) => (letGo = resolve))
    const lock = fakeLocks({ release: () => releasing })
    browserGlobals({ locks: lock.locks })
    const server = fakeServer()
    const told: SessionState[] = []
    const page = createEngine(sessionUrl, (state) => told.push(state), server.fetch)
    server.respond(() => signedOut())
    const first = page.get()
    await until(() => told.length === 1)
    // The record goes (a purge, the site's data cleared) before the first ask's lock is let go.
    await new Promise<void>((resolve) => {
      const open = indexedDB.open('latchkey')
      open.onsuccess = () => {
        const tx = open.result.transaction('sessions', 'readwrite')
        tx.objectStore('sessions').clear()
        tx.oncomplete = () => resolve(open.result.close())
      }
    })
    const second = page.get()
    // It does not join the first ask, whose answer predates the purge: it waits for the lock.
    await until(() => lock.waiting === 1)
    letGo()
    await settled(Promise.all([first, second]))
    expect(server.requests).toHaveLength(2)
  })

  it('refreshes without a tab that froze holding the lock, once the lock deadline passed', async () => {
    // AbortSignal.timeout runs on Node's own timer: here it runs on the test's clock.
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      const controller = new AbortController()
      setTimeout(() => controller.abort(new DOMException('The wait timed out', 'TimeoutError')), ms)
      return controller.signal
    })
    const lock = fakeLocks()
    browserGlobals({ locks: lock.locks })
    const server = fakeServer()
    const [frozen, other] = [createEngine(sessionUrl, undefined, server.fetch), createEngine(sessionUrl, undefined, server.fetch)]
    frozen.get().catch(() => {})
    // The frozen tab asked and holds the lock; its answer never comes.
    await server.requested(1)
    const waited = other.get()
    await until(() => lock.waiting === 1)
    await vi.advanceTimersByTimeAsync(lockDeadline - 1)
    expect(server.requests).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    ;(await settled(server.requested(2))).answer(signedIn())
    expect((await settled(waited)).session?.user).toEqual(alice)
  })

  it('coalesces concurrent asks in one page into one request (no Web Locks)', async () => {
    browserGlobals({})
    const server = fakeServer()
    const page = createEngine(sessionUrl, undefined, server.fetch)
    const asks = Array.from({ length: 10 }, () => page.get())
    await server.requested(1)
    server.respond(() => signedIn())
    const states = await settled(Promise.all(asks))
    expect(server.requests).toHaveLength(1)
    for (const state of states) expect(state).toEqual(states[0])
    expect(states[0].session?.user).toEqual(alice)
  })

  it('lets a sign-in observed in another tab win over a refresh that began before it', async () => {
    const lock = fakeLocks()
    browserGlobals({ locks: lock.locks })
    const server = fakeServer()
    const [a, b] = [createEngine(sessionUrl, undefined, server.fetch), createEngine(sessionUrl, undefined, server.fetch)]
    server.respond(() => signedOut())
    expect((await settled(a.get())).session).toBeNull()
    server.hold()
    vi.advanceTimersByTime(idle)

    const refreshing = a.get()
    const before = await server.requested(2)
    // Tab b's sign-in passes while a's question is out; b then reads again, behind a's lock.
    const expires = Date.now() + 3600_000
    const signIn = b.observe('/callback/credentials', 'POST', new Response(null, { status: 302, headers: { 'latchkey-session': formatTiming({ expires, due: expires - 3000_000 }) } }))
    await until(() => lock.waiting === 1)
    // The server answered a's question before the sign-in: no session.
    before.answer(signedOut())
    server.respond(() => signedIn())
    await settled(signIn)
    expect((await settled(refreshing)).session?.user).toEqual(alice)
    expect((await settled(b.get())).session?.user).toEqual(alice)
    // The stale answer was dropped and the record read again: one request more, not a sign-out.
    expect(server.requests).toHaveLength(3)
  })

  it.each(['this tab', 'another tab'])('keeps a sign-out heard in %s while a refresh is in flight', async (where) => {
    browserGlobals({ locks: fakeLocks().locks })
    const server = fakeServer()
    const told: SessionState[] = []
    const page = createEngine(sessionUrl, (state) => told.push(state), server.fetch)
    const hearer = where === 'this tab' ? page : createEngine(sessionUrl, (state) => told.push(state), server.fetch)
    server.respond(() => signedIn())
    await settled(page.get())
    server.hold()
    vi.advanceTimersByTime(dueIn)

    const refreshing = page.get()
    const inFlight = await server.requested(2)
    await settled(hearer.observe('/signout', 'POST', new Response(null, { status: 200, headers: { 'latchkey-session': 'none' } })))
    // The server extended the session just before the sign-out reached it.
    inFlight.answer(signedIn())
    expect((await settled(refreshing)).session).toBeNull()
    expect(told.map((state) => state.session?.user.id ?? null)).toEqual(['u1', null])
    // Signed out until the record falls due, without asking.
    expect((await settled(page.get())).session).toBeNull()
    expect(server.requests).toHaveLength(2)
  })

  it('answers offline and on a server error with the last session marked stale, never signed out', async () => {
    const { server, told, page, known } = await signedInPastDue()

    vi.stubGlobal('navigator', { ...navigator, onLine: false })
    server.respond(() => 'offline')
    expect(await settled(page.get())).toEqual({ session: known, stale: true, due: Date.now() + retry })
    // Asked again only once the retry delay passed.
    expect((await settled(page.get())).stale).toBe(true)
    expect(server.requests).toHaveLength(2)

    vi.advanceTimersByTime(retry)
    vi.stubGlobal('navigator', { ...navigator, onLine: true })
    server.respond(() => new Response('unavailable', { status: 503 }))
    // The second failure in a row: the wait doubles.
    expect(await settled(page.get())).toEqual({ session: known, stale: true, due: Date.now() + 2 * retry })
    expect(server.requests).toHaveLength(3)

    vi.advanceTimersByTime(2 * retry)
    server.respond(() => signedIn())
    const back = await settled(page.get())
    expect(back.stale).toBeUndefined()
    expect(back.session?.user).toEqual(alice)
    expect(told.every((state) => state.session?.user.id === 'u1')).toBe(true)
  })

  it("keeps the session through a 503 StoreUnavailable, trying again after the server's Retry-After or a doubling backoff, and never signs out", async () => {
    const { server, told, page, known } = await signedInPastDue()

    // What latchkey answers while its database restarts.
    const outage = (retryAfter: string) => () => Response.json({ error: 'StoreUnavailable', message: 'The database did not answer; try again in a few seconds' }, { status: 503, headers: { 'retry-after': retryAfter } })
    const waits: number[] = []
    server.respond(outage('3'))
    for (let failure = 1; failure <= 4; failure++) {
      const state = await settled(page.get())
      expect(state).toMatchObject({ session: known, stale: true })
      waits.push(state.due - Date.now())
      // Not asked again before the wait is over...
      vi.advanceTimersByTime(state.due - Date.now() - 1)
      expect((await settled(page.get())).stale).toBe(true)
      expect(server.requests).toHaveLength(1 + failure)
      vi.advanceTimersByTime(1)
    }
    expect(waits).toEqual([retry, 2 * retry, 4 * retry, 8 * retry])

    // A Retry-After longer than the backoff is waited out.
    server.respond(outage('120'))
    const told120 = await settled(page.get())
    expect(told120.due - Date.now()).toBe(120_000)

    vi.advanceTimersByTime(120_000)
    server.respond(() => signedIn())
    const back = await settled(page.get())
    expect(back.stale).toBeUndefined()
    expect(back.session?.user).toEqual(alice)
    // Every tab was told the same user throughout: stale, never signed out.
    expect(told.length).toBeGreaterThan(5)
    expect(told.every((state) => state.session?.user.id === 'u1')).toBe(true)

    // The backoff starts over after a read that worked.
    vi.advanceTimersByTime(dueIn)
    server.respond(outage('3'))
    expect((await settled(page.get())).due - Date.now()).toBe(retry)
  })

  it('says StoreUnavailable on a first read that meets the outage, and asks again after the wait', async () => {
    browserGlobals({ locks: fakeLocks().locks })
    const server = fakeServer()
    const page = createEngine(sessionUrl, undefined, server.fetch)
    server.respond(() => Response.json({ error: 'StoreUnavailable', message: 'The database did not answer' }, { status: 503, headers: { 'retry-after': '3' } }))
    expect(await settled(page.get())).toEqual({ session: null, due: Date.now() + retry, error: 'StoreUnavailable' })
    expect(await settled(page.get())).toEqual({ session: null, due: Date.now() + 2 * retry, error: 'StoreUnavailable' })
    server.respond(() => signedIn())
    expect((await settled(page.get())).session?.user).toEqual(alice)
  })

  it('the retry delay doubles from 5 s, takes a later Retry-After, and stops at 5 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => retryDelay(n))).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, idle, idle, idle])
    expect(retryDelay(1, 3)).toBe(5_000)
    expect(retryDelay(1, 30)).toBe(30_000)
    expect(retryDelay(2, 86_400)).toBe(idle)
  })

  it('answers a first read offline with an error, not a stored sign-out', async () => {
    browserGlobals({ locks: fakeLocks().locks, onLine: false })
    const server = fakeServer()
    const page = createEngine(sessionUrl, undefined, server.fetch)
    server.respond(() => 'offline')
    expect(await settled(page.get())).toEqual({ session: null, due: Date.now() + retry, error: 'NetworkError' })
    // Nothing was written: back online, the next read asks at once.
    server.respond(() => signedIn())
    expect((await settled(page.get())).session?.user).toEqual(alice)
    expect(server.requests).toHaveLength(2)
  })

  it("a first read that meets no latchkey (an app's index.html, a 404) is NotLatchkey; a 5xx stays ServerError", async () => {
    browserGlobals({ locks: fakeLocks().locks })
    const answers: [() => Response, string][] = [
      [() => new Response('<!doctype html><div id="app"></div>', { headers: { 'content-type': 'text/html' } }), 'NotLatchkey'],
      [() => new Response('Cannot GET /auth/session', { status: 404 }), 'NotLatchkey'],
      [() => Response.json({ message: 'Not Found' }, { status: 404 }), 'NotLatchkey'],
      [() => new Response('<h1>502 Bad Gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }), 'ServerError'],
    ]
    for (const [answer, error] of answers) {
      const server = fakeServer()
      const page = createEngine(sessionUrl, undefined, server.fetch)
      server.respond(answer)
      expect(await settled(page.get())).toEqual({ session: null, due: Date.now() + retry, error })
      vi.advanceTimersByTime(retry)
    }
  })
})
