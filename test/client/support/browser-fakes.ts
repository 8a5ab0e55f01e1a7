/**
 * What the session engine and the worker bridge meet in a browser, made to run in Node and be
 * driven by a test: a server behind `fetch` that answers when told, Web Locks, a fresh IndexedDB,
 * and BroadcastChannels closed after each test.
 */
import { IDBFactory } from 'fake-indexeddb'
import 'fake-indexeddb/auto'
import { vi } from 'vitest'
import { formatTiming } from '../../../src/core/session-rule.js'
import type { Session } from '../../../src/client/types.js'

export const origin = 'https://app.test'
export const sessionUrl = `${origin}/auth/session`

interface Held {
  request: Request
  answer(response: Response): void
  /** As a browser offline, or a server that does not answer: fetch throws a TypeError. */
  fail(): void
}

/**
 * The server behind `fetch`. Requests wait until the test answers them, one by one or with
 * `respond`, which answers those waiting and every later one.
 */
export function fakeServer() {
  const requests: Held[] = []
  const waiting = new Set<Held>()
  const arrivals: { count: number; resolve: () => void }[] = []
  let responder: ((request: Request) => Response | 'offline') | undefined
  const reply = (held: Held) => {
    const response = responder!(held.request)
    if (response === 'offline') held.fail()
    else held.answer(response)
  }
  const fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    new Promise((resolve, reject) => {
      const held: Held = {
        request: new Request(input, init),
        answer: (response) => void (waiting.delete(held) && resolve(response)),
        fail: () => void (waiting.delete(held) && reject(new TypeError('Failed to fetch'))),
      }
      requests.push(held)
      waiting.add(held)
      for (const a of arrivals.filter((a) => requests.length >= a.count)) a.resolve()
      if (responder) reply(held)
    })
  return {
    fetch: fetch as typeof globalThis.fetch,
    requests,
    /** Resolves with the `count`th request once it has arrived. */
    requested: (count: number): Promise<Held> =>
      new Promise<void>((resolve) => (requests.length >= count ? resolve() : arrivals.push({ count, resolve }))).then(() => requests[count - 1]),
    /** Answers the waiting requests and every later one with `responder`'s answer. */
    respond(next: (request: Request) => Response | 'offline') {
      responder = next
      for (const held of [...waiting]) reply(held)
    },
    /** Later requests wait again to be answered by hand. */
    hold() {
      responder = undefined
    },
  }
}

export const alice: Session['user'] = { id: 'u1', name: 'Alice', email: 'alice@example.test' }
const maxAge = 3600_000
const updateAge = 600_000

/** GET /session for a signed-in user, with latchkey's timing header: due in 10 minutes, ends in an hour. */
export function signedIn(user = alice): Response {
  const expires = Math.floor((Date.now() + maxAge) / 1000) * 1000
  const session: Session = { user, expires: new Date(expires).toISOString() }
  return Response.json(session, { headers: { 'latchkey-session': formatTiming({ expires, due: expires - maxAge + updateAge }) } })
}

/** GET /session with no session. */
export const signedOut = (): Response => Response.json(null, { headers: { 'latchkey-session': formatTiming(null) } })

export const dueIn = updateAge

/**
 * Web Locks: one holder per name across every engine of the test (tabs and workers of one origin).
 * `release`: awaited before a lock is let go, for a test that holds that moment open.
 */
export function fakeLocks({ release }: { release?: () => Promise<void> } = {}) {
  const queues = new Map<string, (() => void)[]>()
  const held = new Set<string>()
  let waiting = 0
  const request = async <T>(name: string, options: { signal?: AbortSignal }, callback: () => Promise<T>): Promise<T> => {
    if (held.has(name)) {
      const queue = queues.get(name) ?? []
      queues.set(name, queue)
      waiting++
      await new Promise<void>((resolve, reject) => {
        const give = () => {
          waiting--
          options.signal?.removeEventListener('abort', giveUp)
          resolve()
        }
        const giveUp = () => {
          queue.splice(queue.indexOf(give), 1)
          waiting--
          reject(options.signal!.reason)
        }
        queue.push(give)
        options.signal?.addEventListener('abort', giveUp)
      })
    }
    held.add(name)
    try {
      return await callback()
    } finally {
      // A browser lets go in its own process: the holder's promise settles a round trip later.
      await release?.()
      const next = queues.get(name)?.shift()
      if (next) next()
      else held.delete(name)
    }
  }
  return {
    locks: { request } as unknown as LockManager,
    /** Asks waiting for a lock another holds. */
    get waiting() {
      return waiting
    },
  }
}

/**
 * A page at `url` for `createAuthClient` (its `location`, `navigator`, `addEventListener`), with no
 * worker; the console's warnings collected into the list it answers. Undo with
 * `vi.unstubAllGlobals` and `vi.restoreAllMocks`.
 */
export function pageAt(url: string): string[] {
  const warnings: string[] = []
  vi.spyOn(console, 'warn').mockImplementation((message: string) => void warnings.push(message))
  vi.stubGlobal('location', new URL(`${url}/`))
  vi.stubGlobal('navigator', { onLine: true })
  vi.stubGlobal('addEventListener', () => {})
  return warnings
}

/**
 * A fresh IndexedDB, stubbed globals the engine reads (`navigator.locks`, `navigator.onLine`,
 * `location`), and BroadcastChannels that close when the test ends. Undo with `vi.unstubAllGlobals`
 * and `closeChannels`.
 */
export function browserGlobals(navigator: Record<string, unknown>): void {
  vi.stubGlobal('indexedDB', new IDBFactory())
  vi.stubGlobal('navigator', { onLine: true, ...navigator })
  vi.stubGlobal('location', new URL(origin + '/'))
  vi.stubGlobal('BroadcastChannel', TrackedChannel)
}

const channels = new Set<BroadcastChannel>()
class TrackedChannel extends BroadcastChannel {
  constructor(name: string) {
    super(name)
    channels.add(this)
  }
}
export function closeChannels(): void {
  for (const c of channels) c.close()
  channels.clear()
}

/** Waits for a state no one signal marks (asks queued on a lock): the event loop turns, time stands still. */
export async function until(condition: () => boolean, turns = 1000): Promise<void> {
  for (let i = 0; i < turns && !condition(); i++) await new Promise((resolve) => setImmediate(resolve))
  if (!condition()) throw new Error(`not reached in ${turns} turns of the event loop`)
}

/** `promise`, which must settle while the event loop turns (a hang fails at once, not at the test's timeout). */
export async function settled<T>(promise: Promise<T>): Promise<T> {
  let done = false
  promise.then(
    () => (done = true),
    () => (done = true),
  )
  await until(() => done)
  return promise
}
