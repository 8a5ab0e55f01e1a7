/**
 * A second factor, proven in one request: a code from one of the user's confirmed authenticator
 * apps (each step once), one of their recovery codes (each once), or an assertion by one of their
 * passkeys or security keys (passkey.ts). Anything else is `InvalidCode`, the same answer whatever
 * was wrong, but for a right app code whose time step was used already: `CodeAlreadyUsed`, wait
 * for the next one.
 */
import { AuthError } from '../../../core/errors.js'
import { stringField, type Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import type { AdapterFactor } from '../../../core/types.js'
import { hashRecoveryCode, normalizeRecoveryCode } from './recovery-codes.js'
import { proveKey } from './passkey.js'
import { confirmedFactors, factorStore } from './store.js'
import { totpStep } from './totp.js'

export const invalidCode = () => new AuthError('InvalidCode', 'The code is not right, or this sign-in is no longer waiting for one; sign in again', { status: 400 })

/**
 * A right code whose time step was used already (or is older than the last used one): only a
 * person who holds the right code learns this, so it may be told apart from a wrong one.
 */
export const codeAlreadyUsed = () => new AuthError('CodeAlreadyUsed', 'This code was used already; wait for the authenticator app to show the next one', { status: 400 })

/** What an app code does on `factor`: takes its time step (once), is wrong, or is right for a step used already. */
export async function takeTotpStep(ctx: Context, factor: AdapterFactor, code: string): Promise<'taken' | 'wrong' | 'used'> {
  const step = await totpStep(ctx, factor, code)
  if (step === null) return 'wrong'
  // The compare-and-set makes a code good once, even on two servers at once.
  return (await factorStore(ctx).useFactorStep(factor.id, step)) ? 'taken' : 'used'
}

/** How the second factor was proven, as `amr` names it: an app's code, a recovery code, a key. */
export type SecondFactorMethod = 'otp' | 'recovery' | 'hwk'

/** Proves a second factor of `userId` from `code`, `recoveryCode` or `assertion` in the body; answers which. */
export async function proveSecondFactor(ctx: Context, userId: string, body: Body): Promise<SecondFactorMethod> {
  const code = stringField(body, 'code')
  const recovery = stringField(body, 'recoveryCode')
  const store = factorStore(ctx)
  if (code) {
    let used = false
    for (const factor of await confirmedFactors(ctx, userId)) {
      const taken = await takeTotpStep(ctx, factor, code)
      if (taken === 'taken') return 'otp'
      // Another of the user's apps may still take it: said only when none does.
      used ||= taken === 'used'
    }
    if (used) throw codeAlreadyUsed()
  } else if (recovery) {
    const typed = normalizeRecoveryCode(recovery)
    for (const secret of ctx.config.secrets) {
      if (await store.useRecoveryCode(userId, await hashRecoveryCode(secret, userId, typed))) {
        const user = await store.getUser(userId)
        if (user) await ctx.config.events.recoveryCodeUsed?.({ user, left: await store.countRecoveryCodes(userId) })
        return 'recovery'
      }
    }
  } else if (body.assertion !== undefined) {
    if (await proveKey(ctx, userId, body.assertion)) return 'hwk'
  }
  throw invalidCode()
}
