/**
 * `LatchkeyPlugin.beforeSignIn`, run for every installed plugin: the first refusal is thrown, so
 * nothing after it (an email sent, a password checked, a user made, a session) happens.
 */
import type { Context } from '../kernel/context.js'
import type { SignInAttempt } from '../kernel/types.js'

export async function checkBeforeSignIn(ctx: Context, attempt: SignInAttempt): Promise<void> {
  const email = attempt.email ? attempt.email.trim().toLowerCase() : null
  for (const plugin of ctx.config.plugins) {
    const refusal = await plugin.beforeSignIn?.(ctx, { ...attempt, email })
    if (refusal) throw refusal
  }
}
