/**
 * Second factors: authenticator apps (TOTP), recovery codes, and the user's passkeys or security
 * keys once one of the others is on; trusted devices skip the step for a while. A sign-in by any first factor for
 * a user with a confirmed factor waits for the second one (gate.ts, verify.ts); the user manages
 * them at /mfa (routes.ts). On with `mfa` in the configuration.
 */
import type { Context } from '../../kernel/context.js'
import type { LatchkeyPlugin } from '../../kernel/plugin.js'
import { instanceKey } from '../../kernel/state.js'
import { secondFactorGate } from './gate.js'
import { resolveMfa, type ResolvedMfa } from './options.js'
import { getMfa, postMfa } from './routes.js'
import { pendingCookie } from './pending.js'
import { deviceCookie } from './trusted-device.js'

const optionsOf = instanceKey<ResolvedMfa>('mfa options')

/** This instance's mfa options (installed only where `mfa` is set, so always there). */
const on = (ctx: Context): ResolvedMfa => optionsOf.get(ctx.config)

export const mfa: LatchkeyPlugin = {
  id: 'mfa',
  uses: (config) => Boolean(config.mfa),
  cookies: [pendingCookie, deviceCookie],
  routes: {
    mfa: {
      GET: async (ctx, sub) => getMfa(ctx, sub, on(ctx)),
      POST: async (ctx, sub) => postMfa(ctx, sub, on(ctx)),
      provider: true,
    },
  },
  configure(config, resolved) {
    const origin = Array.isArray(config.origin) ? config.origin[0] : config.origin
    const options = resolveMfa(config.mfa, resolved, origin ? new URL(origin).host : undefined)
    if (!options) return
    optionsOf.set(resolved, options)
    resolved.secondFactor = secondFactorGate(options)
  },
}
