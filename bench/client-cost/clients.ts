/** The clients the bench compares, each with the server it runs against and the page it loads. */
import type { Bundles, ClientPage } from './bundles.js'
import { startBetterAuthServer } from './better-auth-server.js'
import { startLatchkeyServer, type BenchServer } from './latchkey-server.js'

export interface Client {
  name: string
  page: ClientPage
  /** The page's path (and query) on its server. */
  path: string
  /** latchkey's worker serves this page: tabs wait for it to control them. */
  worker: boolean
  /** The peer's own time limits run on the page's clock, which the compressed hour speeds up (see hour.ts). */
  scaledClock: boolean
  start(bundles: Bundles, session: { maxAge: number; updateAge: number }): Promise<BenchServer>
}

export const clients: Client[] = [
  { name: 'latchkey, worker', page: 'latchkey', path: '/latchkey/app', worker: true, scaledClock: false, start: startLatchkeyServer },
  { name: 'latchkey, page engine', page: 'latchkey', path: '/latchkey/app?nosw', worker: false, scaledClock: false, start: startLatchkeyServer },
  { name: 'next-auth/react 5', page: 'next-auth', path: '/next-auth/app', worker: false, scaledClock: false, start: startLatchkeyServer },
  { name: 'better-auth client', page: 'better-auth', path: '/better-auth/app', worker: false, scaledClock: true, start: startBetterAuthServer },
]
