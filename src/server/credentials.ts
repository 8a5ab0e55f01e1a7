/** Credentials sign-in: the app's `authorize` decides; null is `CredentialsSignin`. */
import type { CredentialsConfig } from '../core/types.js'
import { AuthError } from '../core/errors.js'
import type { Body } from './body.js'
import type { Context } from './context.js'
import { completeSignIn } from './sign-in.js'

const reserved = new Set(['csrfToken', 'callbackUrl', 'json', 'redirect'])

export async function signInWithCredentials(ctx: Context, provider: CredentialsConfig<any>, body: Body): Promise<void> {
  const credentials: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(body)) if (!reserved.has(k)) credentials[k] = v
  let user
  try {
    user = await provider.authorize(credentials, ctx.request)
  } catch (cause) {
    // A throwing authorize is the app's fault; log it, tell the browser only that sign-in failed.
    ctx.config.logger.error(new AuthError('CallbackRouteError', `The authorize callback of "${provider.id}" threw`, { cause }))
    throw new AuthError('CredentialsSignin', 'Sign-in failed. Check the details you provided.', { status: 401 })
  }
  if (!user) throw new AuthError('CredentialsSignin', 'Sign-in failed. Check the details you provided.', { status: 401 })
  if (user.id === undefined || user.id === null || String(user.id) === '') {
    throw new AuthError('Configuration', `The authorize callback of "${provider.id}" returned a user without an id`, { status: 500 })
  }
  const id = String(user.id)
  await completeSignIn(ctx, {
    user: { ...user, id },
    account: null,
    credentials,
  })
}
