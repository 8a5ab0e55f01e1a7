/** `checkRateLimit`: counts a request against its action's rules and refuses it past a limit. */
import { AuthError } from '../../core/errors.js'
import { sha256Hex } from '../crypto.js'
import { actionLabels, type RateLimitAction, type RateLimitRules } from './rules.js'
import type { RateLimitStore } from './store.js'

/** `AuthError('RateLimited')`, 429, with the seconds to wait for a `Retry-After` header. */
export class RateLimitError extends AuthError {
  readonly retryAfter: number
  constructor(message: string, retryAfter: number) {
    super('RateLimited', message, { status: 429 })
    this.retryAfter = retryAfter
  }
}

export interface RateLimitSubject {
  action: RateLimitAction
  /** The email address or username the request names; per-account rules skip a request without one. */
  account?: string | null
  /** The client's network address; per-client rules skip a request without one. */
  client?: string | null
}

/**
 * Counts one hit on every rule of `subject.action` that applies, then throws a RateLimitError if
 * any rule is past its limit (waiting for the latest of their windows). Accounts are trimmed,
 * lower-cased and hashed into the key, so "Ada@x" and "ada@x " share a count and no address is
 * stored in clear. A store failure throws an AuthError('AdapterError'), logged in full by the
 * handler and shown to the browser as `Configuration`.
 */
export async function checkRateLimit(store: RateLimitStore, rules: RateLimitRules, subject: RateLimitSubject, now: number = Date.now()): Promise<void> {
  const list = rules[subject.action]
  if (!list) throw new TypeError(`checkRateLimit: unknown action "${subject.action}"`)
  const account = subject.account?.trim() ? await sha256Hex(subject.account.trim().toLowerCase()) : null
  const client = subject.client?.trim() ? subject.client.trim().toLowerCase().slice(0, 100) : null
  const counted = await Promise.all(
    list.map(async (rule) => {
      const value = rule.per === 'account' ? account : client
      if (!value) return null
      const key = `${subject.action}:${rule.per}:${rule.windowSeconds}:${value}`
      try {
        return { rule, ...(await store.hit(key, rule.windowSeconds, now)) }
      } catch (cause) {
        throw new AuthError('AdapterError', `The rate-limit store failed to count "${key}": ${(cause as Error)?.message ?? cause}`, { cause, status: 503 })
      }
    }),
  )
  const over = counted.filter((c) => c !== null && c.count > c.rule.limit)
  if (!over.length) return
  const resetAt = Math.max(...over.map((c) => c!.resetAt))
  const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000))
  const by = over.some((c) => c!.rule.per === 'account') ? 'for this account' : 'from this network address'
  throw new RateLimitError(`Too many ${actionLabels[subject.action]} ${by}; try again in ${describeWait(retryAfter)}`, retryAfter)
}

function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`
  const minutes = Math.ceil(seconds / 60)
  return `${minutes} minutes`
}

/** The key a per-account rule uses, for `store.reset` after a successful sign-in. */
export async function accountKey(action: RateLimitAction, windowSeconds: number, account: string): Promise<string> {
  return `${action}:account:${windowSeconds}:${await sha256Hex(account.trim().toLowerCase())}`
}
