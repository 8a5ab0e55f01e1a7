/**
 * What the session engine knows, beyond the session itself: the instant it will next refresh
 * (`due`) and whether the last refresh failed (`stale`). The demo reads the engine's record in
 * IndexedDB once, then listens on the BroadcastChannel on which the engine (in the worker, or in
 * any tab without one) tells every change.
 */
import { openDB } from 'idb'
import type { SessionState } from 'latchkey'
import { channelName } from '../../src/client/channel-name.js'

export function watchEngine(sessionUrl: string, onChange: (state: SessionState) => void) {
  new BroadcastChannel(channelName(sessionUrl)).onmessage = (event: MessageEvent<SessionState>) => onChange(event.data)
  return {
    /** The record as stored; undefined before the first read of the session. */
    async read(): Promise<SessionState | undefined> {
      // Same name, version and upgrade as the engine, so opening it first changes nothing.
      const db = await openDB('latchkey', 1, { upgrade: (d) => d.createObjectStore('sessions') })
      try {
        const record = (await db.get('sessions', sessionUrl)) as SessionState | undefined
        return record && { session: record.session, due: record.due, stale: record.stale }
      } finally {
        db.close()
      }
    },
  }
}
