/**
 * A second factor, proven in one request: a code from one of the user's confirmed authenticator
 * apps (each step once), one of their recovery codes (each once), or an assertion by one of their
 * passkeys or security keys (passkey.ts). Anything else is `InvalidCode`, the same answer whatever
 * was wrong.
 */
import { AuthError } from '../../../core/errors.js'
import { stringField, type Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { hashRecoveryCode, normalizeRecoveryCode } from './recovery-codes.js'
import { proveKey } from './passkey.js'
import { confirmedFactors, factorStore } from './store.js'
import { totpStep } from './totp.js'

export const invalidCode = () => new AuthError('InvalidCode', 'The code is not right, or this sign-in is no longer waiting for one; sign in again', { status: 400 })

/** How the second factor was proven, as `amr` names it: an app's code, a recovery code, a key. */
export type SecondFactorMethod = 'otp' | 'recovery' | 'hwk'

/** Proves a second factor of `userId` from `code`, `recoveryCode` or `assertion` in the body; answers which. */
export async function proveSecondFactor(ctx: Context, userId: string, body: Body): Promise<SecondFactorMethod> {
  const code = stringField(body, 'code')
  const recovery = stringField(body, 'recoveryCode')
  const store = factorStore(ctx)
  if (code) {
    for (const factor of await confirmedFactors(ctx, userId)) {
      const step = await totpStep(ctx, factor, code)
      // The compare-and-set makes a code good once, even on two servers at once.
      if (step !== null && (await store.useFactorStep(factor.id, step))) return 'otp'
    }
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
