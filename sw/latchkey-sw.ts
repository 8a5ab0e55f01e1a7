/**
 * latchkey's own service worker, for an app that has none: one per origin, shared by every tab.
 * The SDK registers it only when told to (`serviceWorker: '/latchkey-sw.js'`), at root scope as
 * `/latchkey-sw.js?base=/auth`. An app with its own worker includes `installLatchkey` in it
 * instead (sw/index.ts).
 */
import { installLatchkey } from './index.js'
import type { WorkerScope } from './scope.js'

declare const self: WorkerScope

self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))
// Nothing else answers here, so every same-origin fetch of the app is read for session changes.
installLatchkey({ basePath: new URL(self.location.href).searchParams.get('base') || '/auth', apiPaths: ['/'] }, self)
