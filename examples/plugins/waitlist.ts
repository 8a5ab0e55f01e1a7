/**
 * A waitlist, as a plugin (docs/architecture.md, "Write a plugin"): POST /auth/waitlist puts an
 * address on it, GET /auth/waitlist says how many wait, and a sign-in takes the user's address
 * off. The list is in the store (waitlist-store.ts), so servers on one database share it. It
 * imports only latchkey/server, as any third party's plugin does.
 */
import {
  AuthError,
  configurationError,
  enforceRateLimit,
  json,
  pluginWords,
  readAction,
  stringField,
  useAdapter,
  type Context,
  type LatchkeyPlugin,
} from 'latchkey/server'
import { waitlistSchema, type WaitlistStore } from './waitlist-store.js'

export interface WaitlistOptions {
  /** How many addresses it holds; the next one is refused with `WaitlistFull`. */
  capacity: number
}

/** Its words: English whole, French in part (the rest falls back to English); plurals by `Intl.PluralRules`. */
const messages = {
  en: { waiting: { one: '{count} person waits', other: '{count} people wait' } },
  fr: { waiting: { one: '{count} personne attend', other: '{count} personnes attendent' } },
}

/** The store's methods it calls: checked at start-up, and again by `useAdapter` at each call. */
const needs: Array<keyof WaitlistStore> = ['joinWaitlist', 'countWaitlist', 'leaveWaitlist']
const store = (ctx: Context) => useAdapter<WaitlistStore>(ctx.config, needs, 'the waitlist')

export function waitlist(options: WaitlistOptions): LatchkeyPlugin {
  return {
    id: 'waitlist',
    // Checked as `Latchkey(config)` runs: a wrong option stops the start, with the fix.
    configure() {
      if (!Number.isInteger(options.capacity) || options.capacity < 1) {
        throw configurationError(`waitlist: expected capacity to be a whole number >= 1, got ${options.capacity}`)
      }
    },
    // Its table and methods; the adapter is made with the plugin: `openDatabase(url, { plugins })`.
    schema: waitlistSchema,
    adapterMethods: () => needs,
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
          const count = await store(ctx).countWaitlist()
          // In the request's page language (Accept-Language against the configured languages).
          return json(ctx, { waiting: count, text: pluginWords(ctx, messages).text('waiting', { count }) })
        },
        POST: async (ctx) => {
          // The body, its CSRF token checked, and an action of the ones named.
          const { body } = await readAction(ctx, ['join'])
          const email = stringField(body, 'email')?.trim().toLowerCase()
          if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new AuthError('InvalidRequest', 'Expected an email address in "email"')
          await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'waitlist', null, ctx.now)
          if (!(await store(ctx).joinWaitlist(email, options.capacity))) throw new AuthError('WaitlistFull', 'The waitlist is full; try again later', { status: 409 })
          // The same answer whether the address was there already: it tells no one who waits.
          return json(ctx, { joined: true })
        },
      },
    },
    // Whatever the way in: a user who signs in waits no longer.
    async afterSignIn(ctx, { user }) {
      if (user.email) await store(ctx).leaveWaitlist(user.email.toLowerCase())
    },
  }
}
