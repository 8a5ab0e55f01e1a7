/**
 * The session engine: one record per session endpoint in IndexedDB, refreshed at most once per
 * due window across every tab and the worker (a Web Lock plus a re-read), concurrent asks
 * coalesced into one request, changes told to every tab over BroadcastChannel. The service
 * worker runs it; a page with no worker runs the same code itself. Nothing lives only in memory.
 */
import { parseTiming, timingHeader } from '../core/session-rule.js'
import { channelName } from './channel-name.js'
import { fromOrigin } from './from-origin.js'
import { retryAfterOf } from './retry-after.js'
import { whyUnreachable } from './why-unreachable.js'
import { holdsAny, openStore } from './open-store.js'
import type { Session, SessionEngine, SessionState } from './types.js'

interface SessionRecord extends SessionState {
  /** Server expiry minus due instant (maxAge - updateAge), learned from the Latchkey-Session header. */
  gap?: number
  /** Bumped by every observed change, so a refresh that raced a sign-out cannot undo it. */
  epoch: number
  /** Local clock, ms: when the server last told this record (absent in older records). */
  at?: number
}

/** How long a record without a known rule (no session, or a plain Auth.js server) is trusted. */
const idle = 5 * 60_000
/** The wait after a failed read; it doubles with each failure in a row, up to `idle`. */
const retry = 5_000

/**
 * When to read again after `failures` failed reads in a row: the backoff, or the server's
 * `Retry-After` (a 503 `StoreUnavailable`, a 429) where that is later, never past `idle`.
 */
export function retryDelay(failures: number, retryAfterSeconds?: number): number {
  const backoff = retry * 2 ** Math.min(Math.max(failures - 1, 0), 6)
  return Math.min(Math.max(backoff, (retryAfterSeconds ?? 0) * 1000), idle)
}
/**
 * How long a tab waits for another's refresh. A tab frozen or discarded while it holds the lock
 * keeps it; past this the others refresh without it, rather than wait for that tab to thaw.
 */
export const lockDeadline = 5_000

/** The JSON body of a response that others read too; undefined when there is none. */
const readJson = async (response: Response): Promise<any> => {
  try {
    return await response.clone().json()
  } catch {
    return undefined
  }
}

export interface Engine extends SessionEngine {
  /** A response from the basePath passed by (worker fetch handler, or the page's own POSTs). */
  observe(path: string, method: string, response: Response): Promise<void>
  /** The session may have changed unseen (a navigation through the basePath): read it again now. */
  expire(gap?: number): Promise<void>
}

/**
 * A device-bound session whose short cookie lapsed answers `/session` with 403 and this header,
 * the server's challenge for the device's key (`"challenge";id="binding id"`).
 */
const challengeHeader = 'secure-session-challenge'

/**
 * Whether a key that may refresh the binding `id` is on this device. The page never reads the key
 * (it asks only whether the worker's store holds one); the worker checks the key's binding id.
 */
export type DeviceKeyCheck = (id: string) => Promise<boolean>
const anyDeviceKey: DeviceKeyCheck = () => holdsAny('latchkey-device', 'keys').catch(() => false)

/**
 * `fetcher`: the worker's, which answers a device-bound session's refresh challenge.
 * `hasKey`: the worker's own check of its device key (the page's default asks only whether one is stored).
 */
export function createEngine(sessionUrl: string, onChange?: (state: SessionState) => void, fetcher: typeof fetch = fetch, hasKey: DeviceKeyCheck = anyDeviceKey): Engine {
  const db = openStore('latchkey', 'sessions')
  const channel = new BroadcastChannel(channelName(sessionUrl))
  const origin = new URL(sessionUrl).origin
  const locks = (globalThis.navigator as Navigator | undefined)?.locks
  let inflight: Promise<SessionState> | undefined
  /** Failed reads in a row, for the backoff; the record keeps the session they could not refresh. */
  let failures = 0

  const read = async (): Promise<SessionRecord | undefined> => (await db()).get('sessions', sessionUrl)
  const view = ({ session, due, stale, ended }: SessionRecord): SessionState => ({ session, due, stale, ended })
  /** Tells this page and every other tab (and the worker's pages) what the stored record now says. */
  const announce = (record: SessionRecord): SessionState => {
    const state = view(record)
    channel.postMessage(state)
    onChange?.(state)
    return state
  }
  const write = async (record: SessionRecord): Promise<SessionState> => {
    await (await db()).put('sessions', record, sessionUrl)
    return announce(record)
  }
  /**
   * Writes what a refresh learned, unless a sign-in or sign-out was observed since it began (the
   * stored epoch moved on). The look and the put are one IndexedDB transaction: an observation
   * written between them by another tab would otherwise be overwritten by an answer older than it.
   */
  const writeUnlessMoved = async (record: SessionRecord, epoch: number): Promise<SessionState | undefined> => {
    const tx = (await db()).transaction('sessions', 'readwrite')
    const current = (await tx.store.get(sessionUrl)) as SessionRecord | undefined
    if (current && current.epoch !== epoch) {
      await tx.done
      return
    }
    await tx.store.put(record, sessionUrl)
    await tx.done
    return announce(record)
  }
  /** Not due, and told by the server after `after` (local ms) when that is asked. */
  const fresh = (r: SessionRecord | undefined, after = 0): boolean => !!r && Date.now() < r.due && (r.at ?? 0) >= after

  /** The record for a session the server just answered, timed in the local clock. */
  const timed = (session: Session | null, headers: Headers, now: number, prev: SessionRecord | undefined, epoch: number): SessionRecord => {
    const date = Date.parse(headers.get('date') ?? '')
    // Date has second resolution and is stamped before we receive it, so this skew never
    // exceeds the true one: a local due instant computed with it is never early.
    const skew = Number.isNaN(date) ? 0 : date - now
    const t = parseTiming(headers.get(timingHeader))
    const gap = t ? t.expires - t.due : prev?.gap
    let due = now + idle
    if (session) {
      const expires = Date.parse(session.expires) - skew
      due = gap === undefined ? now + Math.min(idle, (expires - now) / 2) : expires - gap
    }
    return { session, due: Math.max(due, now + 1000), gap, epoch, at: now }
  }

  const refresh = async (after?: number): Promise<SessionState> => {
    const prev = await read()
    if (fresh(prev, after)) return view(prev!)
    const now = Date.now()
    const epoch = prev?.epoch ?? 0
    let response: Response | undefined
    let session: Session | null
    try {
      response = await fetcher(sessionUrl, { credentials: 'include', cache: 'no-store', headers: { accept: 'application/json' } })
      const binding = response.status === 403 && fromOrigin(response, origin) ? /;\s*id="((?:[^"\\]|\\.)*)"/.exec(response.headers.get(challengeHeader) ?? '')?.[1].replace(/\\(.)/g, '$1') : undefined
      if (binding !== undefined && !(await hasKey(binding))) return keyless(prev)
      if (!response.ok || !fromOrigin(response, origin)) throw new Error(String(response.status))
      session = await response.json()
    } catch (e) {
      // A 404, or a body that is not JSON below 500, is no latchkey's answer (a basePath that is not the server's).
      const status = response?.status ?? 0
      const notLatchkey = status === 404 || (e instanceof SyntaxError && status < 500)
      // 503 StoreUnavailable: the server's database did not answer for a moment. Not a sign-out:
      // the session shown stays (stale) and the read is tried again, later each time.
      const outage = status === 503 && (await readJson(response!))?.error === 'StoreUnavailable'
      const code = notLatchkey ? 'NotLatchkey' : outage ? 'StoreUnavailable' : !(e instanceof TypeError) ? 'ServerError' : (await whyUnreachable(sessionUrl)) === 'cross-origin' ? 'CrossOriginRefused' : 'NetworkError'
      const due = now + retryDelay(++failures, response && fromOrigin(response, origin) ? retryAfterOf(response) : undefined)
      if (!prev) return { session: null, due, error: code }
      return write({ ...prev, stale: true, due })
    }
    failures = 0
    const written = await writeUnlessMoved(timed(session, response.headers, Date.now(), prev, epoch), epoch)
    if (written) return written
    // A sign-in or sign-out was observed while we asked (in any tab, or the worker): it wins.
    const latest = await read()
    return latest && fresh(latest) ? view(latest) : refresh(after)
  }

  /**
   * The session is bound to a device key that is no longer here (Safari purged the site's storage
   * after 7 days unvisited, the user cleared it) and its short cookie lapsed: no refresh can ever
   * succeed, and the server refuses a second binding of the same session. So it ends cleanly, as a
   * sign-out: the server deletes the record and clears the cookies, every tab hears "signed out",
   * and the next sign-in makes a new session that the worker binds to a new key.
   */
  const keyless = async (prev: SessionRecord | undefined): Promise<SessionState> => {
    const base = sessionUrl.slice(0, -'/session'.length)
    try {
      const { csrfToken } = await (await fetcher(base + '/csrf', { credentials: 'include', cache: 'no-store', headers: { accept: 'application/json' } })).json()
      await fetcher(base + '/signout', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
        body: new URLSearchParams({ csrfToken, callbackUrl: origin }),
      })
    } catch {
      // Unreachable now: the next read meets the same answer and tries again.
    }
    const now = Date.now()
    return write({ session: null, due: now + idle, gap: prev?.gap, epoch: (prev?.epoch ?? 0) + 1, at: now, ended: 'DeviceKeyMissing' })
  }

  /** One refresh at a time across tabs and the worker, held only around the request. `settled`: called once its answer is written. */
  const locked = (after: number | undefined, settled: () => void): Promise<SessionState> => {
    const run = () => refresh(after).finally(settled)
    return locks
      ? (locks.request(channelName(sessionUrl), { signal: AbortSignal.timeout(lockDeadline) }, run) as unknown as Promise<SessionState>).catch((e) => {
        if (e?.name === 'TimeoutError') return run()
        throw e
      })
      : run()
  }

  const get = async (after?: number): Promise<SessionState> => {
    const record = await read()
    if (fresh(record, after)) return view(record!)
    if (inflight) return inflight
    // Let go once the answer is written, before the lock is (a round trip to the browser): an ask
    // after that reads the record, and one after it changed asks anew rather than joining.
    const settled = () => void (inflight === asking && (inflight = undefined))
    const asking: Promise<SessionState> = locked(after, settled).finally(settled)
    return (inflight = asking)
  }

  const expire = async (gap?: number): Promise<void> => {
    const prev = await read()
    await (await db()).put('sessions', { session: prev?.session ?? null, due: 0, gap: gap ?? prev?.gap, epoch: (prev?.epoch ?? 0) + 1 }, sessionUrl)
    await get()
  }

  const observe = async (path: string, method: string, response: Response): Promise<void> => {
    // A response that left the server's origin says nothing about its session.
    if (!fromOrigin(response, origin)) return
    const timing = parseTiming(response.headers.get(timingHeader))
    const post = method === 'POST'
    const now = Date.now()
    if (path === '/session' && response.ok && (timing !== undefined || post)) {
      // The body is the session: no need to ask again.
      const body = await readJson(response)
      const prev = await read()
      if (body !== undefined) await write(timed(body, response.headers, now, prev, (prev?.epoch ?? 0) + 1))
      return
    }
    // Without the header (a plain Auth.js server) the path tells.
    const signedOut = timing === null || (timing === undefined && post && path === '/signout' && response.status < 400)
    // A sign-in ends at a callback, or at its second step.
    let changed = !!timing || (timing === undefined && (path.startsWith('/callback/') || path === '/mfa/verify'))
    if (changed && !timing && response.status === 200) {
      // `200 {url}` from an Auth.js server: a failed sign-in names its error in the url.
      const url = (await readJson(response))?.url
      if (typeof url === 'string' && /[?&]error=/.test(url)) changed = false
    }
    const gap = timing ? timing.expires - timing.due : undefined
    if (!signedOut) return changed ? expire(gap) : undefined
    const prev = await read()
    await write({ session: null, due: now + idle, gap: gap ?? prev?.gap, epoch: (prev?.epoch ?? 0) + 1, at: now })
  }

  return { get, observe, expire }
}
