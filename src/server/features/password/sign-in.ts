/**
 * Signing in with an address and a password. Every attempt spends one scrypt verification, known
 * address or not (`dummyVerify`), so the time does not tell whether an account exists; a wrong
 * password and an unknown address are the same `CredentialsSignin`. A hash made with older
 * parameters is made again on success. Only then is an unconfirmed address refused
 * (`EmailNotVerified`), to the person who knows the password.
 */
import type { PasswordConfig } from '../../../providers/password.js'
import { AuthError } from '../../../core/errors.js'
import { stringField, type Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { completeSignIn, type SignInResult } from '../../sign-in/complete.js'
import { checkBeforeSignIn } from '../../sign-in/before.js'
import { normalizeEmail } from '../../kernel/address.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'
import { dummyVerify, hashPassword, verifyPassword } from './hash.js'
import type { ResolvedPassword } from './options.js'
import { normalizePassword } from './policy.js'
import { passwordStore } from './store.js'

const refused = () => new AuthError('CredentialsSignin', 'Sign-in failed. Check the details you provided.', { status: 401 })

export async function signInWithPassword(ctx: Context, provider: PasswordConfig, options: ResolvedPassword, body: Body): Promise<SignInResult> {
  let email = ''
  try {
    email = normalizeEmail(stringField(body, 'email') ?? '')
  } catch {}
  const attempt = await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'credentials', [email || '-'], ctx.now)
  // Refused from the address alone, before the password is checked: the same for every address a plugin refuses.
  if (email) await checkBeforeSignIn(ctx, { step: 'start', email, provider: provider.id })
  let typed = ''
  try {
    typed = normalizePassword(typeof body.password === 'string' ? body.password : '')
  } catch {}
  const store = passwordStore(ctx)
  const user = email ? await store.getUserByEmail(email) : null
  const stored = user ? await store.getPasswordHash(user.id) : null
  const result = stored ? await verifyPassword(typed, stored) : await dummyVerify(typed)
  if (!user || !result.ok) throw refused()
  await attempt.succeeded()
  if (result.rehash) await store.setPasswordHash(user.id, await hashPassword(typed))
  if (options.requireVerifiedEmail && !user.emailVerified) {
    throw new AuthError('EmailNotVerified', 'Confirm your email address first: use the link or code we sent, or ask for a new email (POST /password/verify-again)', { status: 403 })
  }
  // The password never reaches the signIn callback: only the address does.
  return completeSignIn(ctx, { user, account: null, provider: provider.id, credentials: { email }, amr: ['pwd'] })
}
