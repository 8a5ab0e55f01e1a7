/**
 * latchkey's worker, for an app's own service worker to include (`latchkey/sw`, or
 * `importScripts('/latchkey-sw-import.js')` and the global `LatchkeyWorker`). Call
 * `installLatchkey({ basePath })` before the app's own fetch listeners: the first listener that
 * calls respondWith answers a request, and latchkey answers only the requests under basePath
 * that are not navigations. It observes navigations without answering them, so the app's worker
 * (or the browser) decides what a page load gets, offline included. It adds no install or
 * activate listener: the app's worker keeps its own lifecycle.
 */
import { fromOrigin } from '../src/client/from-origin.js'
import { networkFailure } from '../src/client/network-failure.js'
import { createEngine } from '../src/client/session-engine.js'
import { underWay } from '../src/client/under-way.js'
import type { SessionState } from '../src/client/types.js'
import { timingHeader } from '../src/core/session-rule.js'
import { deviceBinding } from './device-binding.js'
import type { WorkerScope, FetchEvent } from './scope.js'

export interface LatchkeyWorkerOptions {
  /** Where the server's routes live on this origin. Default `/auth`. */
  basePath?: string
  /**
   * Path prefixes of the app's own API (for example `['/api/']`) whose answers latchkey reads:
   * a 401 there, or a `Latchkey-Session` header (an extension or a clearing by
   * `auth.getSession(req, res)`), tells every tab the session changed, without the app asking.
   * latchkey answers those fetches (passing them to the network unchanged; one the network fails
   * comes back 504 with `Latchkey-Network-Error`), so list only paths no handler of the app's own
   * worker answers. Default: none. latchkey's own worker: every path.
   */
  apiPaths?: string[]
}

export function installLatchkey({ basePath = '/auth', apiPaths = [] }: LatchkeyWorkerOptions = {}, scope: WorkerScope = self as unknown as WorkerScope): void {
  const base = basePath.replace(/\/+$/, '')
  const sessionUrl = new URL(base + '/session', scope.location.origin).href
  let timer: ReturnType<typeof setTimeout> | undefined
  // A navigation under basePath (a callback, a form sign-out) may set the cookie; the next one
  // outside it (the redirect to the app) starts after it did, so that is when to read again.
  let afterAuthNavigation = false

  const hasTabs = async () => (await scope.clients.matchAll({ type: 'window' })).length > 0
  const device = deviceBinding(base, scope.location.origin, hasTabs)

  /** A timer per due instant: when it comes and a tab is still open, the session is extended. */
  const schedule = (state: SessionState) => {
    clearTimeout(timer)
    if (!state.session) {
      if (!state.stale) void device.signedOut().catch(() => {})
      return
    }
    // A new sign-in is a new session to bind; signedInAt tells them apart where the store keeps it.
    device.signedIn(typeof state.session.signedInAt === 'string' ? state.session.signedInAt : `user:${state.session.user?.id ?? ''}`)
    timer = setTimeout(async () => {
      if (await hasTabs()) await engine.get().catch(() => {})
    }, Math.min(Math.max(state.due - Date.now(), 1000), 2 ** 31 - 1))
  }

  const engine = createEngine(sessionUrl, schedule, device.fetch, device.holds)

  /** Work under way (a page's read, an answer being observed): `settle` waits for it and the device binding's. */
  const work = underWay()
  const track = work.track
  const settled = async () => {
    do {
      await work.settled()
      await device.idle()
    } while (work.busy())
  }

  scope.addEventListener('message', (event) => {
    const port = event.ports?.[0]
    const { latchkey, session } = event.data ?? {}
    // Another latchkey install in the same worker may serve the page's endpoint: stay silent.
    if (!port || (session && session !== sessionUrl)) return
    // Answered once nothing the worker started is left to do (docs/service-worker.md), for tests.
    if (latchkey === 'settle') return void settled().then(() => port.postMessage({ latchkey: 'settled' }))
    if (latchkey !== 'connect') return
    port.postMessage({ latchkey: 'ready' })
    // The page's calls (src/client/worker-bridge.ts): `{ id, after }`, answered `{ id, state }` or `{ id, error }`.
    port.onmessage = async ({ data }) => {
      if (typeof data?.id !== 'number') return
      try {
        port.postMessage({ id: data.id, state: await track(engine.get(typeof data.after === 'number' ? data.after : undefined)) })
      } catch (e) {
        port.postMessage({ id: data.id, error: String(e) })
      }
    }
  })

  /**
   * The app's API answered 401 (a sign-out elsewhere, a revoked session) or carried the timing
   * header: with the header the change is known; a bare 401 has the session read again.
   */
  const appAnswered = (method: string, response: Response): Promise<void> =>
    response.headers.has(timingHeader) ? engine.observe('', method, response) : engine.expire()

  scope.addEventListener('fetch', (event: FetchEvent) => {
    const request = event.request
    const url = new URL(request.url)
    if (url.origin !== scope.location.origin) return
    const inBase = url.pathname === base || url.pathname.startsWith(base + '/')
    if (request.mode === 'navigate') {
      if (inBase) afterAuthNavigation = true
      else if (afterAuthNavigation) {
        afterAuthNavigation = false
        event.waitUntil(track(engine.expire()).catch(() => {}))
      }
      return
    }
    if (!inBase) {
      // fetch() and XHR only: scripts, styles and images say nothing about the session.
      if (request.destination !== '' || !apiPaths.some((prefix) => url.pathname.startsWith(prefix))) return
      event.respondWith(
        track(
          device.fetch(request).then((response) => {
            // An answer redirected to another origin is that origin's word, not the app's.
            const told = fromOrigin(response, url.origin) && (response.status === 401 || response.headers.has(timingHeader))
            if (told) event.waitUntil(track(appAnswered(request.method, response)).catch(() => {}))
            return response
          }, networkFailure),
        ),
      )
      return
    }
    event.respondWith(
      track(
        device.fetch(request).then(async (response) => {
          try {
            await engine.observe(url.pathname.slice(base.length), request.method, response)
          } catch {
            // Observing must never break the app's request.
          }
          return response
        }, networkFailure),
      ),
    )
  })
}
