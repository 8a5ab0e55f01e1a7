/**
 * The in-process store: right for one server (and for tests), wrong for several, which would each
 * count apart. Bounded, because the keys come from requests: expired windows are dropped as hits
 * arrive, and past `maxEntries` the oldest window is dropped (an attacker spraying new keys can
 * then only make some old counts restart, never exhaust memory).
 */
import { checkHitArguments, type RateLimitHit, type RateLimitStore } from './store.js'

export interface MemoryRateLimitStoreOptions {
  /** The most keys kept at once. Default 10 000. */
  maxEntries?: number
}

export interface MemoryRateLimitStore extends RateLimitStore {
  refund(key: string, now: number): Promise<void>
  reset(key: string): Promise<void>
  /** Keys held now (expired ones may linger until the next hit). */
  readonly size: number
}

export function memoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): MemoryRateLimitStore {
  const maxEntries = options.maxEntries ?? 10_000
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError(`memoryRateLimitStore: expected maxEntries >= 1, got ${maxEntries}`)
  // Map order is window-opening order: a renewed window is deleted and set again, so it moves last.
  const windows = new Map<string, RateLimitHit>()

  function evict(now: number): void {
    for (const [key, window] of windows) {
      if (window.resetAt > now && windows.size < maxEntries) break
      windows.delete(key)
    }
  }

  return {
    async hit(key, windowSeconds, now) {
      checkHitArguments(key, windowSeconds, now)
      const current = windows.get(key)
      if (current && current.resetAt > now) {
        current.count++
        return { ...current }
      }
      windows.delete(key)
      evict(now)
      const opened = { count: 1, resetAt: now + windowSeconds * 1000 }
      windows.set(key, opened)
      return { ...opened }
    },
    async refund(key, now) {
      const current = windows.get(key)
      if (current && current.resetAt > now && current.count > 0) current.count--
    },
    async reset(key) {
      windows.delete(key)
    },
    get size() {
      return windows.size
    },
  }
}
