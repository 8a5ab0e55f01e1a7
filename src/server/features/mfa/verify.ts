/**
 * POST /mfa/verify: the second step of a sign-in that the first factor left pending. A code from
 * the authenticator app, a recovery code or a key's assertion (after `action: 'passkey-options'`)
 * completes it: the session starts, with `amr` naming both factors, and with `trustDevice` this
 * browser skips the step for a while (trusted-device.ts). At most `maxTries` attempts per pending sign-in (then it is void), and a per-user
 * limit across sign-ins (the `mfa` rate limit); a wrong code, a spent or unknown pending sign-in
 * all answer the same `InvalidCode`.
 */
import type { AdapterAccount } from '../../../core/types.js'
import { readBody, stringField } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { verifyCsrf } from '../../kernel/csrf.js'
import { resolveCallbackUrl } from '../../kernel/redirect-url.js'
import { redirect, type Reply } from '../../kernel/respond.js'
import { linkAfterSecondFactor, startSession } from '../../sign-in/complete.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'
import { readPending, spendPending, type Pending } from './pending.js'
import { invalidCode, proveSecondFactor, type SecondFactorMethod } from './prove.js'
import { AuthError } from '../../../core/errors.js'
import { json } from '../../kernel/respond.js'
import type { ResolvedMfa } from './options.js'
import { keyOptions } from './passkey.js'
import { trustDevice } from './trusted-device.js'
import { factorStore } from './store.js'
import { countTry as countInStore } from './tries.js'

export async function verifySecondFactor(ctx: Context, mfa: ResolvedMfa): Promise<Reply> {
  const body = await readBody(ctx.request, ctx.config.maxBodySize)
  await verifyCsrf(ctx, body.csrfToken)
  const pending = await readPending(ctx)
  if (!pending || pending.setup) throw invalidCode()
  if (body.action === 'passkey-options') return json(ctx, { options: await keyOptions(ctx, pending.userId) })
  if (body.action !== undefined) throw new AuthError('UnknownAction', 'Expected no "action" (a proof) or "passkey-options"')
  await countTry(ctx, pending)
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'mfa', pending.userId, ctx.now)
  const method = await proveSecondFactor(ctx, pending.userId, body)
  await finishPending(ctx, pending, method)
  const trust = body.trustDevice === true || body.trustDevice === 'true' || body.trustDevice === 'on'
  if (trust && mfa.trustDevices) await trustDevice(ctx, pending.userId, mfa.trustDevices)
  const asked = stringField(body, 'callbackUrl')
  return redirect(ctx, asked ? await resolveCallbackUrl(ctx, asked) : pending.callbackUrl)
}

/** The pending sign-in, its second factor proven: spent once, it starts the session with `amr` naming both factors. */
export async function finishPending(ctx: Context, pending: Pending, method: SecondFactorMethod): Promise<void> {
  if (!(await spendPending(ctx, pending))) throw invalidCode()
  const user = await factorStore(ctx).getUser(pending.userId)
  if (!user) throw invalidCode()
  const account = pending.account ? ({ ...pending.account, userId: user.id } as AdapterAccount) : null
  if (pending.link) await linkAfterSecondFactor(ctx, user, { ...pending.link, userId: user.id } as AdapterAccount)
  await startSession(ctx, user, {
    account,
    isNewUser: pending.isNewUser,
    provider: pending.provider,
    carried: { signedInAt: pending.signedInAt },
    amr: [...pending.amr, method, 'mfa'],
  })
}

/** Counts this try against the pending sign-in, in the store; past `maxTries` the sign-in is void. */
async function countTry(ctx: Context, pending: Pending): Promise<void> {
  if (await countInStore(ctx, pending.userId)) return
  await spendPending(ctx, pending)
  throw invalidCode()
}
