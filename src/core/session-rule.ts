/**
 * The in-step session rule shared by the server and the service worker (DESIGN.md).
 * All instants are milliseconds since the epoch, rounded down to whole seconds so that a
 * stored expiry and a cookie's `Expires` (which has second resolution) are the same instant.
 */

export interface SessionTiming {
  /** When the session ends unless extended. */
  expires: number
  /** From this instant an access extends the session. */
  due: number
}

const second = 1000

/** The expiry of a session created or extended at `now`. */
export function nextExpiry(now: number, maxAge: number): number {
  return Math.floor((now + maxAge * second) / second) * second
}

/** When a session that ends at `expires` is next due for extension. */
export function dueAt(expires: number, maxAge: number, updateAge: number): number {
  return expires - maxAge * second + updateAge * second
}

export function timing(expires: number, maxAge: number, updateAge: number): SessionTiming {
  return { expires, due: dueAt(expires, maxAge, updateAge) }
}

export type Access = 'expired' | 'due' | 'fresh'

/** What an access at `now` does to a session ending at `expires`. */
export function classifyAccess(now: number, expires: number, maxAge: number, updateAge: number): Access {
  if (now >= expires) return 'expired'
  return now >= dueAt(expires, maxAge, updateAge) ? 'due' : 'fresh'
}

/** The header that tells the worker about a session change: `expires=<ms>; due=<ms>`, or `none` when cleared. */
export const timingHeader = 'Latchkey-Session'

export function formatTiming(t: SessionTiming | null): string {
  return t ? `expires=${t.expires}; due=${t.due}` : 'none'
}

export function parseTiming(value: string | null): SessionTiming | null | undefined {
  if (value === null) return undefined
  if (value.trim() === 'none') return null
  const m = /expires=(\d+);\s*due=(\d+)/.exec(value)
  return m ? { expires: Number(m[1]), due: Number(m[2]) } : undefined
}
