/**
 * The session service worker: one per origin, shared by every tab. It runs the session engine
 * (IndexedDB record, one /session request per due window, coalesced asks), answers the tabs over
 * comlink on a MessagePort each tab posts to it, watches responses under the basePath (and
 * same-origin navigations) for session changes, and keeps a due session alive while tabs are open.
 * Register it at root scope as `/latchkey-sw.js?base=/auth`.
 */
import { expose } from 'comlink'
import { createEngine } from '../src/client/session-engine.js'
import type { SessionState } from '../src/client/types.js'
import type { WorkerScope, FetchEvent } from './scope.js'

declare const self: WorkerScope

const base = new URL(self.location.href).searchParams.get('base')?.replace(/\/+$/, '') || '/auth'
let timer: ReturnType<typeof setTimeout> | undefined

/** A timer per due instant: when it comes and a tab is still open, the session is extended. */
function schedule(state: SessionState) {
  clearTimeout(timer)
  if (!state.session) return
  timer = setTimeout(async () => {
    if ((await self.clients.matchAll({ type: 'window' })).length) await engine.get().catch(() => {})
  }, Math.min(Math.max(state.due - Date.now(), 1000), 2 ** 31 - 1))
}

const engine = createEngine(new URL(base + '/session', self.location.origin).href, schedule)
const api = { get: () => engine.get() }

self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

self.addEventListener('message', (event) => {
  const port = event.ports?.[0]
  if (event.data?.latchkey === 'connect' && port) expose(api, port)
})

self.addEventListener('fetch', (event: FetchEvent) => {
  const request = event.request
  const url = new URL(request.url)
  const inBase = url.origin === self.location.origin && (url.pathname === base || url.pathname.startsWith(base + '/'))
  const navigation = request.mode === 'navigate' && url.origin === self.location.origin
  if (!inBase && !navigation) return
  const path = inBase ? url.pathname.slice(base.length) : ''
  event.respondWith(
    (async () => {
      const response = await fetch(request)
      try {
        await engine.observe(path, request.method, response)
      } catch {
        // Observing must never break the app's request.
      }
      return response
    })(),
  )
})
