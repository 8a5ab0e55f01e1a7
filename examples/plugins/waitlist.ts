/**
 * A waitlist, as a plugin (docs/architecture.md, "Write a plugin"): POST /auth/waitlist puts an
 * address on it, GET /auth/waitlist says how many wait, and a sign-in takes the user's address
 * off. It imports only latchkey/server, as any third party's plugin does.
 */
import {
  AuthError,
  configurationError,
  enforceRateLimit,
  instanceKey,
  json,
  pluginWords,
  readAction,
  stringField,
  type LatchkeyPlugin,
} from 'latchkey/server'

export interface WaitlistOptions {
  /** How many addresses it holds; the next one is refused with `WaitlistFull`. */
  capacity: number
}

/** Its words: English whole, French in part (the rest falls back to English); plurals by `Intl.PluralRules`. */
const messages = {
  en: { waiting: { one: '{count} person waits', other: '{count} people wait' } },
  fr: { waiting: { one: '{count} personne attend', other: '{count} personnes attendent' } },
}

/** The addresses waiting, per instance: typed state on the instance, never a module-level map. */
const waiting = instanceKey<Set<string>>('waitlist addresses')

export function waitlist(options: WaitlistOptions): LatchkeyPlugin {
  return {
    id: 'waitlist',
    // Checked as `Latchkey(config)` runs: a wrong option stops the start, with the fix.
    configure(_config, resolved) {
      if (!Number.isInteger(options.capacity) || options.capacity < 1) {
        throw configurationError(`waitlist: expected capacity to be a whole number >= 1, got ${options.capacity}`)
      }
      waiting.set(resolved, new Set())
    },
    // The browser may see this code; any other code the plugin threw would reach it as `Configuration`.
    errorCodes: ['WaitlistFull'],
    messages,
    // Counted per network address; `rateLimit.rules.waitlist` in the configuration may replace the rule.
    rateLimits: {
      waitlist: { label: 'waitlist requests', rules: [{ per: 'client', limit: 5, windowSeconds: 3600 }] },
    },
    routes: {
      waitlist: {
        GET: async (ctx) => {
          const count = waiting.get(ctx.config).size
          // In the request's page language (Accept-Language against the configured languages).
          return json(ctx, { waiting: count, text: pluginWords(ctx, messages).text('waiting', { count }) })
        },
        POST: async (ctx) => {
          // The body, its CSRF token checked, and an action of the ones named.
          const { body } = await readAction(ctx, ['join'])
          const email = stringField(body, 'email')?.trim().toLowerCase()
          if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new AuthError('InvalidRequest', 'Expected an email address in "email"')
          await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'waitlist', null, ctx.now)
          const list = waiting.get(ctx.config)
          if (!list.has(email) && list.size >= options.capacity) throw new AuthError('WaitlistFull', 'The waitlist is full; try again later', { status: 409 })
          list.add(email)
          // The same answer whether the address was there already: it tells no one who waits.
          return json(ctx, { joined: true })
        },
      },
    },
    // Whatever the way in: a user who signs in waits no longer.
    async afterSignIn(ctx, { user }) {
      if (user.email) waiting.get(ctx.config).delete(user.email.toLowerCase())
    },
  }
}
