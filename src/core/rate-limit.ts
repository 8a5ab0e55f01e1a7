/**
 * The rate-limit options of `AuthConfig.rateLimit`, as types: what a configuration says, and the
 * argument check every store shares. The limits themselves run in src/server/kernel/rate-limit;
 * the PostgreSQL and Redis stores are beside the adapters (src/adapters).
 */

/**
 * The actions the kernel counts for several plugins at once (emails and their codes for email and
 * passwords, credential guesses, passkey options for passkeys and second factors); a plugin's own
 * (mfa's `mfa`, dbsc's `dbscChallenge`) it registers itself.
 */
export type BuiltInRateLimitAction = 'email' | 'emailCode' | 'credentials' | 'passkeyOptions'
/** A counted action: a built-in one, or one a plugin registers (`LatchkeyPlugin.rateLimits`). */
export type RateLimitAction = BuiltInRateLimitAction | (string & {})

export interface RateLimitRule {
  /** What the hits are counted by (for dbscChallenge, the "account" is the session). */
  per: 'account' | 'client' | 'account+client'
  /**
   * `attempts` (default): every request counts. `failures` (credentials only): an attempt counts
   * while it runs and is taken back when `authorize` accepts it, or when a limit refuses it.
   */
  counts?: 'attempts' | 'failures'
  /** Hits allowed in one window; the next one is refused. */
  limit: number
  windowSeconds: number
}

export type RateLimitRules = Record<RateLimitAction, RateLimitRule[]>

/** How a refusal names an action: "Too many <label> for this <accountName>". */
export interface RateLimitWords {
  label: string
  /** What a per-account rule counts where it is not an account ("session", "phone number"). Default: account. */
  accountName?: string
}

/**
 * What a request of an action meets when the store cannot count it (it failed, or did not answer
 * in time): `closed`, a 503 `StoreUnavailable` with `Retry-After` (nothing else runs); `open`, it
 * goes on uncounted. Either way the outage is logged once, not per request.
 */
export type StoreFailurePolicy = 'open' | 'closed'

/** An action a plugin registers: its default rules (the configuration's `rateLimit.rules` may replace them) and its words. */
export interface RateLimitActionSpec extends RateLimitWords {
  rules: RateLimitRule[]
  /** When the store cannot count; default `closed` (`rateLimit.whenStoreFails` may change it). */
  whenStoreFails?: StoreFailurePolicy
}

export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  count: number
  /** When the current window ends, in milliseconds since the epoch. */
  resetAt: number
}

export interface RateLimitStore {
  /** Counts one hit on `key` at `now` (milliseconds) and answers the window's count and end. */
  hit(key: string, windowSeconds: number, now: number): Promise<RateLimitHit>
  /**
   * Takes one hit back from `key`'s current window: the attempt turned out not to count (a correct
   * password, under a rule that counts failures). Without an open window nothing changes; the
   * count never goes below 0. Needed only by rules with `counts: 'failures'`.
   */
  refund?(key: string, now: number): Promise<void>
  /** Forgets `key`, for example after a successful sign-in. */
  reset?(key: string): Promise<void>
}

export type GetClientAddress = (request: Request) => string | null | undefined | Promise<string | null | undefined>

export interface RateLimitOptions {
  /** Where counts live. Default: the SQL adapter's database, else this process's memory. */
  store?: RateLimitStore
  /** Per action, replacing that action's default rules; `[]` turns an action's limits off. */
  rules?: Partial<RateLimitRules>
  /** The client's network address; default `defaultClientAddress(trustProxy)`. */
  getClientAddress?: GetClientAddress
  /** Believe `X-Forwarded-For`: `true` for its first entry, n for n proxies of yours. Default false. */
  trustProxy?: boolean | number
  /**
   * Per action, what a request meets when the store cannot count it: `closed` (503) or `open`
   * (uncounted). Default: guesses (`credentials`, `emailCode`, `passkeyOptions`, `mfa`, a plugin's
   * code guesses) closed, `email` and `dbscChallenge` open.
   */
  whenStoreFails?: Partial<Record<RateLimitAction, StoreFailurePolicy>>
}

/** The options resolved: what the server counts with. */
export interface ResolvedRateLimit {
  store: RateLimitStore
  rules: RateLimitRules
  /** Words for each action's refusal, the built-in ones and the plugins'. */
  words: Record<string, RateLimitWords>
  getClientAddress: GetClientAddress
  /** Every action's policy when the store cannot count. */
  whenStoreFails: Record<string, StoreFailurePolicy>
  /** Whether the store is failing now: an outage is logged when it starts and when it ends. */
  outage: StoreOutage
}

/** The store's state as the requests see it: one log line when it stops answering, one when it answers again. */
export interface StoreOutage {
  /** The store failed (`cause`); logged when this starts an outage. */
  failed(cause: unknown): void
  /** The store answered; logged when this ends an outage. */
  answered(): void
  readonly down: boolean
}

/** Throws a TypeError unless the arguments of `hit` are usable; shared by every store. */
export function checkHitArguments(key: string, windowSeconds: number, now: number): void {
  if (typeof key !== 'string' || key.length === 0) throw new TypeError(`rate limit: expected a non-empty key, got ${JSON.stringify(key)}`)
  if (!Number.isFinite(windowSeconds) || windowSeconds <= 0) throw new TypeError(`rate limit: expected windowSeconds > 0, got ${windowSeconds}`)
  if (!Number.isFinite(now)) throw new TypeError(`rate limit: expected now in milliseconds, got ${now}`)
}
