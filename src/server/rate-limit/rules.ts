/**
 * Which requests are limited, by what, and how much. A rule counts per account (the address or
 * username the request names) or per client (the network address it comes from): per-account
 * rules stop guessing one account's password from many addresses, per-client rules stop one
 * address from trying many accounts or sending mail to many inboxes.
 */
export type RateLimitAction = 'email' | 'credentials' | 'passkeyOptions'

export interface RateLimitRule {
  /** What the hits are counted by. */
  per: 'account' | 'client'
  /** Hits allowed in one window; the next one is refused. */
  limit: number
  windowSeconds: number
}

export type RateLimitRules = Record<RateLimitAction, RateLimitRule[]>

const minutes = 60

export const defaultRateLimitRules: RateLimitRules = {
  // Each one sends an email: to the owner of the address, and from our domain's reputation.
  email: [
    { per: 'account', limit: 5, windowSeconds: 15 * minutes },
    { per: 'client', limit: 20, windowSeconds: 15 * minutes },
  ],
  // Each one is a password guess.
  credentials: [
    { per: 'account', limit: 10, windowSeconds: 15 * minutes },
    { per: 'client', limit: 30, windowSeconds: 15 * minutes },
  ],
  // Cheap, but each one stores a challenge and may look up a user.
  passkeyOptions: [{ per: 'client', limit: 30, windowSeconds: 1 * minutes }],
}

export const rateLimitActions = Object.keys(defaultRateLimitRules) as RateLimitAction[]

/** Words for messages: "Too many <label> ...". */
export const actionLabels: Record<RateLimitAction, string> = {
  email: 'email sign-in requests',
  credentials: 'sign-in attempts',
  passkeyOptions: 'passkey requests',
}

/**
 * The defaults with `overrides` on top: an action given replaces that action's rules whole
 * (an empty list turns its limits off). Throws a TypeError naming the first bad rule.
 */
export function resolveRateLimitRules(overrides: Partial<RateLimitRules> = {}): RateLimitRules {
  const rules = { ...defaultRateLimitRules }
  for (const [action, list] of Object.entries(overrides)) {
    if (!rateLimitActions.includes(action as RateLimitAction)) {
      throw new TypeError(`rateLimit.rules: unknown action "${action}"; expected one of ${rateLimitActions.join(', ')}`)
    }
    if (list === undefined) continue
    if (!Array.isArray(list)) throw new TypeError(`rateLimit.rules.${action}: expected a list of rules`)
    list.forEach((rule, i) => checkRule(rule, `rateLimit.rules.${action}[${i}]`))
    // Two such rules would share one count, and each request would add two to it.
    const seen = new Set(list.map((rule) => `${rule.per}/${rule.windowSeconds}`))
    if (seen.size !== list.length) throw new TypeError(`rateLimit.rules.${action}: two rules count per the same thing over the same window; keep the one with the lower limit`)
    rules[action as RateLimitAction] = list
  }
  return rules
}

function checkRule(rule: RateLimitRule, where: string): void {
  if (!rule || (rule.per !== 'account' && rule.per !== 'client')) throw new TypeError(`${where}: expected per "account" or "client", got ${JSON.stringify(rule?.per)}`)
  if (!Number.isInteger(rule.limit) || rule.limit < 1) throw new TypeError(`${where}: expected limit to be a whole number >= 1, got ${rule.limit}`)
  if (!Number.isFinite(rule.windowSeconds) || rule.windowSeconds <= 0) throw new TypeError(`${where}: expected windowSeconds > 0, got ${rule.windowSeconds}`)
}
