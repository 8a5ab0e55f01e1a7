/**
 * A passkey or security key as the second factor: an assertion by one of the user's registered
 * keys, over a challenge made for this step (`second-factor`, which no sign-in accepts). It stands
 * for "something held" whatever the first factor was; user verification is not asked.
 * The keys and their ceremony are the webauthn feature's, reached through the contract
 * (`config.keyProofs`, none without a WebAuthn provider).
 */
import { AuthError } from '../../../core/errors.js'
import type { Context } from '../../kernel/context.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'

const needFor = 'a passkey as second factor'

/** How many keys `userId` could answer with (0 where no WebAuthn provider is configured). */
export async function countKeys(ctx: Context, userId: string): Promise<number> {
  const proofs = ctx.config.keyProofs
  return proofs ? (await proofs.keys(ctx, userId, needFor)).length : 0
}

/** The request options for `userId`'s keys, and the challenge cookie. */
export async function keyOptions(ctx: Context, userId: string) {
  // Each one stores a challenge, as the sign-in's options do: the same limit.
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'passkeyOptions', null, ctx.now)
  const options = await ctx.config.keyProofs?.options(ctx, userId, { purpose: 'second-factor', userVerification: 'discouraged', needFor })
  if (!options) throw new AuthError('InvalidRequest', 'This account has no passkey or security key: use a code from the authenticator app or a recovery code')
  return options
}

/** True when `assertion` is a valid answer by one of `userId`'s keys to a challenge issued here; any failure is false. */
export async function proveKey(ctx: Context, userId: string, assertion: unknown): Promise<boolean> {
  return (await ctx.config.keyProofs?.verify(ctx, userId, 'second-factor', assertion)) ?? false
}
