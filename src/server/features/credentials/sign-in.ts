/**
 * Credentials sign-in: the app's `authorize` decides; null is `CredentialsSignin`. The attempt is
 * counted against the rate limits before `authorize` runs, and taken back from the rules that
 * count failures when it accepts.
 */
import type { CredentialsConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import type { Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { readCredentials } from './fields.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'
import { completeSignIn, type SignInResult } from '../../sign-in/complete.js'

export async function signInWithCredentials(ctx: Context, provider: CredentialsConfig<any>, body: Body): Promise<SignInResult> {
  const { credentials, accounts } = readCredentials(provider, body)
  const attempt = await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'credentials', accounts, ctx.now)
  let user
  try {
    user = await provider.authorize(credentials, ctx.request)
  } catch (cause) {
    // A throwing authorize is the app's fault; log it, tell the browser only that sign-in failed.
    ctx.config.logger.error(new AuthError('CallbackRouteError', `The authorize callback of "${provider.id}" threw`, { cause }))
    throw new AuthError('CredentialsSignin', 'Sign-in failed. Check the details you provided.', { status: 401 })
  }
  if (!user) throw new AuthError('CredentialsSignin', 'Sign-in failed. Check the details you provided.', { status: 401 })
  await attempt.succeeded()
  if (user.id === undefined || user.id === null || String(user.id) === '') {
    throw new AuthError('Configuration', `The authorize callback of "${provider.id}" returned a user without an id`, { status: 500 })
  }
  const id = String(user.id)
  return completeSignIn(ctx, {
    user: { ...user, id },
    account: null,
    credentials,
    provider: provider.id,
  })
}
