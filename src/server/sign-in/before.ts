/**
 * `LatchkeyPlugin.beforeSignIn`, run for every installed plugin: the first refusal is thrown, so
 * nothing after it (an email sent, a password checked, a user made, a session) happens.
 */
import type { AuthError } from '../../core/errors.js'
import type { Context } from '../kernel/context.js'
import type { SignInAttempt } from '../kernel/types.js'

export async function checkBeforeSignIn(ctx: Context, attempt: SignInAttempt): Promise<void> {
  const refusal = await beforeSignInRefusal(ctx, attempt)
  if (refusal) throw refusal
}

/** The first plugin's refusal, not thrown: for work after the answer, which stops without telling. */
export async function beforeSignInRefusal(ctx: Context, attempt: SignInAttempt): Promise<AuthError | undefined> {
  const email = attempt.email ? attempt.email.trim().toLowerCase() : null
  for (const plugin of ctx.config.plugins) {
    const refusal = await plugin.beforeSignIn?.(ctx, { ...attempt, email })
    if (refusal) return refusal
  }
}
