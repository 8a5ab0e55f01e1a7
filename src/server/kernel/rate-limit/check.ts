/** `checkRateLimit`: counts a request against its action's rules and refuses it past a limit. */
import { AuthError, storeRetryAfterSeconds } from '../../../core/errors.js'
import { sha256Hex } from '../crypto.js'
import { builtInWords, type RateLimitAction, type RateLimitRule, type RateLimitRules, type RateLimitWords } from './rules.js'
import type { RateLimitStore } from './store.js'

/** `AuthError('RateLimited')`, 429, with the seconds to wait for a `Retry-After` header. */
export class RateLimitError extends AuthError {
  declare readonly retryAfter: number
  constructor(message: string, retryAfter: number) {
    super('RateLimited', message, { status: 429, retryAfter })
  }
}

/**
 * The store could not count (it threw, or did not answer in time): an `AdapterError` naming the
 * key, with the store's own error as its cause. `enforceRateLimit` meets it with the action's
 * `whenStoreFails`.
 */
export class RateLimitStoreError extends AuthError {
  constructor(message: string, cause: unknown) {
    super('AdapterError', message, { cause, status: 503 })
  }
}


/**
 * `AuthError('StoreUnavailable')`, 503 with `Retry-After`: a request of an action that fails
 * closed, which the store could not count. Nothing in its message comes from the store.
 */
export class RateLimitStoreUnavailable extends AuthError {
  declare readonly retryAfter: number
  constructor(words: RateLimitWords) {
    super('StoreUnavailable', `The server cannot count ${words.label} right now, so it takes none; try again in ${describeWait(storeRetryAfterSeconds)}`, { status: 503, retryAfter: storeRetryAfterSeconds })
  }
}

export interface RateLimitSubject {
  action: RateLimitAction
  /**
   * The email address or username the request names; several when it is not known which one the
   * app reads (each is counted). Per-account rules skip a request without one.
   */
  account?: string | readonly string[] | null
  /** The client's network address; per-client rules skip a request without one (see `countedBy`). */
  client?: string | null
  /** How a refusal names the action; default: the built-in action's words, else its name. */
  words?: RateLimitWords
}

/** One counted request. */
export interface CountedAttempt {
  /** The attempt succeeded: takes back its hits on rules that count failures (once; later calls do nothing). */
  succeeded(): Promise<void>
}

/** What `enforceRateLimit` answers when limits are off. */
export const uncountedAttempt: CountedAttempt = { succeeded: async () => {} }

/**
 * Counts one hit on every rule of `subject.action` that applies, then throws a RateLimitError if
 * any rule is past its limit (waiting for the latest of their windows). A refused request's hits
 * on rules that count failures are taken back: it was not a guess, so refusals from one address
 * never add up to the per-account ceiling. Accounts are normalised (`normalizeAccount`) and
 * hashed into the key, so "Ada@x" and "ada@x " share a count and no address is stored in clear.
 * A store failure throws a RateLimitStoreError (see `enforceRateLimit` for what the request meets).
 */
export async function checkRateLimit(store: RateLimitStore, rules: RateLimitRules, subject: RateLimitSubject, now: number = Date.now()): Promise<CountedAttempt> {
  const list = rules[subject.action]
  if (!list) throw new TypeError(`checkRateLimit: unknown action "${subject.action}"`)
  if (list.some((rule) => rule.counts === 'failures') && typeof store.refund !== 'function') {
    throw new TypeError(`checkRateLimit: the ${subject.action} rules count failures, which needs a store with refund(key, now)`)
  }
  const named = [subject.account ?? []].flat().map(normalizeAccount).filter(Boolean)
  const accounts = await Promise.all([...new Set(named)].map((account) => sha256Hex(account)))
  const client = subject.client?.trim() ? subject.client.trim().toLowerCase().slice(0, 100) : null
  const keyed = list.flatMap((rule) => countedBy(rule.per, accounts, client).map((value) => ({ rule, key: `${subject.action}:${rule.per}:${rule.windowSeconds}:${value}` })))
  const counted = await Promise.all(keyed.map(async ({ rule, key }) => ({ rule, key, ...(await storeCall(() => store.hit(key, rule.windowSeconds, now))) })))
  let failures = counted.filter((c) => c.rule.counts === 'failures')
  const refund = async () => {
    const taken = failures
    failures = [] // once only
    await Promise.all(taken.map((c) => storeCall(() => store.refund!(c.key, now))))
  }
  const over = counted.filter((c) => c.count > c.rule.limit)
  if (!over.length) return { succeeded: refund }
  await refund()
  const resetAt = Math.max(...over.map((c) => c.resetAt))
  const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000))
  const words = subject.words ?? (builtInWords as Record<string, RateLimitWords>)[subject.action] ?? { label: `${subject.action} requests` }
  const accountName = words.accountName ?? 'account'
  const by = over.some((c) => c.rule.per === 'account')
    ? `for this ${accountName}`
    : over.some((c) => c.rule.per === 'account+client')
      ? `for this ${accountName} from this network address`
      : 'from this network address'
  throw new RateLimitError(`Too many ${words.label} ${by}; try again in ${describeWait(retryAfter)}`, retryAfter)
}

/**
 * The values a rule counts by: none when the request lacks what the rule needs. Per account and
 * client, an unknown client counts as one client: the rule then bounds the account's guesses as a
 * per-account rule would, rather than lapse and leave only the ceiling.
 */
function countedBy(per: RateLimitRule['per'], accounts: string[], client: string | null): string[] {
  if (per === 'account') return accounts
  if (per === 'account+client') return accounts.map((account) => `${account}:${client ?? '?'}`)
  return client ? [client] : []
}

/** The store's own words travel as the cause; the key (an account's hash) is named nowhere. */
async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (cause) {
    throw new RateLimitStoreError(`The rate-limit store failed: ${(cause as Error)?.message ?? cause}`, cause)
  }
}

/**
 * One spelling per account: Unicode compatibility forms folded (NFKC), surrounding space trimmed,
 * lower-cased. An app that tells "Ada" from "ada" then shares one count between them: stricter,
 * never looser.
 */
export function normalizeAccount(account: string): string {
  return account.normalize('NFKC').trim().toLowerCase()
}

function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`
  const minutes = Math.ceil(seconds / 60)
  return `${minutes} minutes`
}

/** The key a per-account rule uses, for `store.reset` after a successful sign-in. */
export async function accountKey(action: RateLimitAction, windowSeconds: number, account: string): Promise<string> {
  return `${action}:account:${windowSeconds}:${await sha256Hex(normalizeAccount(account))}`
}
