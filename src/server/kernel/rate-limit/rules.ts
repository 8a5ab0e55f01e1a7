/**
 * Which requests are limited, by what, and how much. A rule counts per account (the address or
 * username the request names), per client (the network address it comes from), or per account
 * and client together: per-account rules stop guessing one account's password from many
 * addresses, per-client rules stop one address from trying many accounts or sending mail to many
 * inboxes, and per-account-and-client rules stop one address guessing one account without
 * locking the account's owner out from elsewhere.
 */
import { configurationError } from '../../../core/errors.js'
import type { BuiltInRateLimitAction, RateLimitAction, RateLimitActionSpec, RateLimitRule, RateLimitRules, RateLimitWords, StoreFailurePolicy } from '../../../core/rate-limit.js'

export type { RateLimitAction, RateLimitActionSpec, RateLimitRule, RateLimitRules, RateLimitWords }

const minutes = 60

export const defaultRateLimitRules: Record<BuiltInRateLimitAction, RateLimitRule[]> = {
  // Each one sends an email: to the owner of the address, and from our domain's reputation.
  email: [
    { per: 'account', limit: 5, windowSeconds: 15 * minutes },
    { per: 'client', limit: 20, windowSeconds: 15 * minutes },
  ],
  // Each one is a guess at an emailed code. A code itself burns after its maxAttempts (5) wrong
  // guesses; these bound the guesses at the codes one address asks for, and one client's at many.
  emailCode: [
    { per: 'account', limit: 30, windowSeconds: 15 * minutes },
    { per: 'client', limit: 30, windowSeconds: 15 * minutes },
  ],
  // Each failure is a wrong password guess. One address gets 10 on one account; all addresses
  // together get 100 (the ceiling a stranger with many addresses reaches, locking the owner out).
  // A correct password is not held back by other addresses' failures below the ceiling.
  credentials: [
    { per: 'account+client', limit: 10, windowSeconds: 15 * minutes, counts: 'failures' },
    { per: 'account', limit: 100, windowSeconds: 15 * minutes, counts: 'failures' },
    { per: 'client', limit: 30, windowSeconds: 15 * minutes },
  ],
  // Cheap, but each one stores a challenge and may look up a user.
  passkeyOptions: [{ per: 'client', limit: 30, windowSeconds: 1 * minutes }],
}

/**
 * What a built-in action meets when the store cannot count (docs/configuration.md). A guess
 * uncounted is a guess unbounded, for as long as the store is down: credentials and codes answer
 * 503 rather than let a password or a code be tried without end. Passkey options are a probe of
 * an address (the options read its user): closed too. An email is not a guess: uncounted, it
 * reaches only the inbox it is sent to, for the length of the outage, while closed would stop
 * every email sign-in, sign-up and reset while the store is down: open.
 */
export const defaultWhenStoreFails: Record<BuiltInRateLimitAction, StoreFailurePolicy> = {
  email: 'open',
  emailCode: 'closed',
  credentials: 'closed',
  passkeyOptions: 'closed',
}

/**
 * Every action's policy: the configuration's `whenStoreFails`, else the plugin's (`closed` where it
 * says none), else the built-in default. Throws a Configuration error naming a bad entry.
 */
export function resolveWhenStoreFails(given: unknown, rules: RateLimitRules, registered: Record<string, RateLimitActionSpec> = {}): Record<string, StoreFailurePolicy> {
  const policies: Record<string, StoreFailurePolicy> = { ...defaultWhenStoreFails }
  for (const [action, spec] of Object.entries(registered)) policies[action] = checkPolicy(spec.whenStoreFails ?? 'closed', `rate-limit action ${action}: whenStoreFails`)
  if (given === undefined) return policies
  if (!given || typeof given !== 'object' || Array.isArray(given)) {
    throw configurationError(`rateLimit.whenStoreFails: expected an object of action: "open" | "closed", got ${describe(given)}`)
  }
  const actions = Object.keys(rules)
  for (const [action, policy] of Object.entries(given)) {
    if (!actions.includes(action)) throw configurationError(`rateLimit.whenStoreFails: unknown action "${action}"; expected one of ${actions.join(', ')}`)
    if (policy !== undefined) policies[action] = checkPolicy(policy, `rateLimit.whenStoreFails.${action}`)
  }
  return policies
}

function checkPolicy(policy: unknown, where: string): StoreFailurePolicy {
  if (policy === 'open' || policy === 'closed') return policy
  throw configurationError(`${where}: expected "open" (the request goes on uncounted) or "closed" (503 StoreUnavailable), got ${describe(policy)}`)
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`
}

/** Words for messages: "Too many <label> for this <accountName>". */
export const builtInWords: Record<BuiltInRateLimitAction, RateLimitWords> = {
  email: { label: 'email sign-in requests' },
  emailCode: { label: 'email code attempts' },
  credentials: { label: 'sign-in attempts' },
  passkeyOptions: { label: 'passkey requests' },
}

/**
 * The defaults with `overrides` on top: an action given replaces that action's rules whole
 * (an empty list turns its limits off). Throws a TypeError naming the first bad rule.
 */
export function resolveRateLimitRules(overrides: Partial<RateLimitRules> = {}, registered: Record<string, RateLimitActionSpec> = {}): RateLimitRules {
  const rules: RateLimitRules = { ...defaultRateLimitRules }
  for (const [action, spec] of Object.entries(registered)) {
    if (Object.hasOwn(rules, action)) throw configurationError(`rateLimit: the action "${action}" is registered twice; a plugin's actions need names of their own`)
    spec.rules.forEach((rule, i) => checkRule(rule, action, `rate-limit action ${action}, rule ${i}`))
    rules[action] = spec.rules
  }
  const actions = Object.keys(rules)
  for (const [action, list] of Object.entries(overrides)) {
    if (!actions.includes(action)) {
      throw configurationError(`rateLimit.rules: unknown action "${action}"; expected one of ${actions.join(', ')}`)
    }
    if (list === undefined) continue
    if (!Array.isArray(list)) throw configurationError(`rateLimit.rules.${action}: expected a list of rules`)
    list.forEach((rule, i) => checkRule(rule, action as RateLimitAction, `rateLimit.rules.${action}[${i}]`))
    // Two such rules would share one count, and each request would add two to it.
    const seen = new Set(list.map((rule) => `${rule.per}/${rule.windowSeconds}`))
    if (seen.size !== list.length) throw configurationError(`rateLimit.rules.${action}: two rules count per the same thing over the same window; keep the one with the lower limit`)
    rules[action as RateLimitAction] = list
  }
  return rules
}

/** True when some rule counts failures: the store must then be able to refund. */
export function countsFailures(rules: RateLimitRules): boolean {
  return Object.values(rules).some((list) => list.some((rule) => rule.counts === 'failures'))
}

const pers = ['account', 'client', 'account+client']

function checkRule(rule: RateLimitRule, action: RateLimitAction, where: string): void {
  if (!rule || !pers.includes(rule.per)) throw configurationError(`${where}: expected per "account", "client" or "account+client", got ${JSON.stringify(rule?.per)}`)
  if (rule.counts !== undefined && rule.counts !== 'attempts' && rule.counts !== 'failures') {
    throw configurationError(`${where}: expected counts "attempts" or "failures", got ${JSON.stringify(rule.counts)}`)
  }
  // Only a credentials attempt ends in a verdict that can take its hit back.
  if (rule.counts === 'failures' && action !== 'credentials') throw configurationError(`${where}: counts "failures" applies only to credentials rules`)
  if (!Number.isInteger(rule.limit) || rule.limit < 1) throw configurationError(`${where}: expected limit to be a whole number >= 1, got ${rule.limit}`)
  if (!Number.isFinite(rule.windowSeconds) || rule.windowSeconds <= 0) throw configurationError(`${where}: expected windowSeconds > 0, got ${rule.windowSeconds}`)
}
