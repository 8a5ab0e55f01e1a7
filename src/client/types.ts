import type { AccountInfo, AppProvider, IdentityInfo, PasskeyInfo, ProviderForm, Session, SessionInfo } from '../core/types.js'

export type { AccountInfo, AppProvider, IdentityInfo, PasskeyInfo, ProviderForm, Session, SessionInfo }

/** What the session engine (worker or page) answers: the session and the local instant it is next due. */
export interface SessionState {
  session: Session | null
  /** Local clock, ms: from this instant the record must be refreshed from the server. */
  due: number
  /** The last request failed (offline, server down): `session` is the last one known. */
  stale?: boolean
  /** Set when no session was ever known and the server could not be reached. */
  error?: string
  /**
   * Why the session ended here without a sign-out being asked for: `DeviceKeyMissing`, a
   * device-bound session whose key this browser no longer holds (its site data was purged or
   * cleared) could not be refreshed, and was signed out.
   */
  ended?: 'DeviceKeyMissing'
}

/** The engine's surface, the same whether it runs in the service worker or in the page. */
export interface SessionEngine {
  /** `after` (local ms): a record the server told before then is read again, due or not. */
  get(after?: number): Promise<SessionState>
}

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated'
