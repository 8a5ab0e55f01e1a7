/**
 * Second factors: authenticator apps (TOTP), recovery codes, and the user's passkeys or security
 * keys once one of the others is on; trusted devices skip the step for a while. A sign-in by any first factor for
 * a user with a confirmed factor waits for the second one (gate.ts, verify.ts); the user manages
 * them at /mfa (routes.ts). On with `mfa` in the configuration.
 *
 * Start-up holds only the option checks and the cookie names. The gate, the routes and what they
 * use (otpauth, uqr for the QR code) load on first use: a bundler splits them off.
 */
import type { Context } from '../../kernel/context.js'
import { lazy } from '../../kernel/lazy.js'
import type { LatchkeyPlugin } from '../../kernel/plugin.js'
import { instanceKey } from '../../kernel/state.js'
import type { SecondFactorGate } from '../../kernel/types.js'
import { deviceCookie, pendingCookie } from './cookies.js'
import { mfaMethods, resolveMfa, type ResolvedMfa } from './options.js'

const optionsOf = instanceKey<ResolvedMfa>('mfa options')

/** This instance's mfa options (installed only where `mfa` is set, so always there). */
const on = (ctx: Context): ResolvedMfa => optionsOf.get(ctx.config)

const routes = lazy(() => import('./routes.js'))
const gates = lazy(() => import('./gate.js'))

/** The gate (gate.ts) as a shell whose methods load it on their first call. */
function secondFactorGate(options: ResolvedMfa): SecondFactorGate {
  const gate = lazy(async () => (await gates()).secondFactorGate(options))
  return {
    check: async (ctx, first) => (await gate()).check(ctx, first),
    // Without a pending sign-in there is no form: the sign-in page need not load the gate for that.
    pageForm: async (ctx, hidden) => (ctx.cookies.has(pendingCookie.of(ctx)) ? (await gate()).pageForm(ctx, hidden) : undefined),
    forgetTrustedDevices: async (ctx, userId) => (await gate()).forgetTrustedDevices(ctx, userId),
    onAddressProven: async (ctx, user) => (await gate()).onAddressProven(ctx, user),
  }
}

export const mfa: LatchkeyPlugin = {
  id: 'mfa',
  // CodeAlreadyUsed: a right app code whose time step was used already (prove.ts).
  errorCodes: ['SecondFactorRequired', 'SecondFactorSetupRequired', 'CodeAlreadyUsed'],
  rateLimits: {
    // Each one is a guess at a second factor. A pending sign-in takes 5 (verify.ts); this bounds a
    // user's guesses across many pending sign-ins (a stolen password used again and again).
    mfa: { label: 'second-factor attempts', accountName: 'user', rules: [{ per: 'account', limit: 20, windowSeconds: 15 * 60 }] },
  },
  uses: (config) => Boolean(config.mfa),
  cookies: [pendingCookie, deviceCookie],
  adapterMethods: () => [...mfaMethods],
  routes: {
    mfa: {
      GET: async (ctx, sub) => (await routes()).getMfa(ctx, sub, on(ctx)),
      POST: async (ctx, sub) => (await routes()).postMfa(ctx, sub, on(ctx)),
      provider: true,
    },
  },
  configure(config, resolved) {
    // The issuer's default: the app's name, else the host of its origin (`origin` or AUTH_URL).
    const first = resolved.originRule.first
    const options = resolveMfa(config.mfa, resolved, resolved.theme.name ?? (first ? new URL(first).host : undefined))
    if (!options) return
    optionsOf.set(resolved, options)
    resolved.secondFactor = secondFactorGate(options)
  },
}
