/**
 * /mfa, in the management routes' shape (kernel/manage.ts): GET lists the signed-in user's
 * factors and how many recovery codes are left; POST `action`:
 * - `enroll` (fresh session): a new authenticator app, unconfirmed: its `otpauth://` URI, the
 *   secret for typing in, and the URI as a QR code (SVG);
 * - `confirm` with `id` and `code`: the first code confirms it; the user's first factor also
 *   makes their recovery codes, answered this once;
 * - `remove` with `id` (fresh session and a second factor: `code` or `recoveryCode`);
 * - `recovery-codes` (fresh session and a second factor, as `remove`): a new set, answered this
 *   once; the old set is void;
 * - `passkey-options`: request options for the user's own keys, to prove a `remove` with one;
 * - `forget-device` with `id`: one of the trusted devices asks again (trusted-device.ts).
 * The listing has the apps, the count of recovery codes and of keys, and the trusted devices.
 * GET and POST /mfa/verify are the sign-in's second step (verify.ts).
 */
import type { AdapterFactor, AdapterUser } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { stringField, type Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { requireFresh } from '../../kernel/fresh.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'
import { readAction, requireOwner, signedIn } from '../../kernel/manage.js'
import { json, redirect, type Reply } from '../../kernel/respond.js'
import type { ResolvedMfa } from './options.js'
import { codeAlreadyUsed, invalidCode, proveSecondFactor, takeTotpStep } from './prove.js'
import { newRecoveryCodes } from './recovery-codes.js'
import { appFactors, confirmedFactors, factorStore } from './store.js'
import { countKeys, keyOptions } from './passkey.js'
import { forgetDevice, listTrustedDevices } from './trusted-device.js'
import { enrolment, newTotpSecret, sealSecret } from './totp.js'
import { readPending, type Pending } from './pending.js'
import { finishPending, verifySecondFactor } from './verify.js'

/** A factor as the browser sees it: never its secret. */
const view = (f: AdapterFactor) => ({ id: f.id, type: f.type, label: f.label, confirmed: !!f.confirmedAt, createdAt: f.createdAt.toISOString() })
// Events name apps only: a trusted device is no factor to the user.
const eventView = (f: AdapterFactor) => ({ id: f.id, type: 'totp' as const, label: f.label })

async function listing(ctx: Context, mfa: ResolvedMfa, userId: string) {
  return {
    factors: (await appFactors(ctx, userId)).map(view),
    recoveryCodes: await factorStore(ctx).countRecoveryCodes(userId),
    passkeys: await countKeys(ctx, userId),
    trustedDevices: mfa.trustDevices ? await listTrustedDevices(ctx, userId, mfa.trustDevices) : [],
  }
}

export async function getMfa(ctx: Context, sub: string | undefined, mfa: ResolvedMfa): Promise<Reply> {
  if (sub === 'verify') return pendingMethods(ctx, mfa)
  if (sub !== undefined) throw new AuthError('UnknownAction', 'GET /mfa takes no path segment but verify')
  const { user } = await requireOwner(ctx)
  return json(ctx, await listing(ctx, mfa, user.id))
}

export async function postMfa(ctx: Context, sub: string | undefined, mfa: ResolvedMfa): Promise<Reply> {
  if (sub === 'verify') return verifyFromForm(ctx, mfa)
  if (sub !== undefined) throw new AuthError('UnknownAction', 'Expected POST /mfa or POST /mfa/verify')
  const me = await ownerOrSetup(ctx)
  const { body, action } = await readAction(ctx, ['enroll', 'confirm', 'remove', 'recovery-codes', 'passkey-options', 'forget-device'])
  const store = factorStore(ctx)
  const { user, setup } = me
  if (setup && action !== 'enroll' && action !== 'confirm') throw new AuthError('AccessDenied', 'Expected a signed-in user; sign in first', { status: 401 })
  if (action === 'enroll') {
    // A sign-in that must set up a factor has just proven its first one.
    if (!setup) requireFresh(ctx, me.signedInAt)
    // One enrolment waits at a time: an unconfirmed one from before goes.
    for (const old of await appFactors(ctx, user.id)) if (!old.confirmedAt) await store.deleteFactor(old.id)
    const secret = newTotpSecret()
    const label = stringField(body, 'label')?.slice(0, 64) || null
    const factor = await store.createFactor({ id: crypto.randomUUID(), userId: user.id, type: 'totp', secret: await sealSecret(ctx, secret), confirmedAt: null, createdAt: new Date(ctx.now), lastUsedStep: null, label })
    return json(ctx, { factor: view(factor), secret, ...enrolment(secret, mfa.issuer, user.email) })
  }
  if (action === 'confirm') {
    const factor = await ownFactor(ctx, user, stringField(body, 'id'))
    if (factor.confirmedAt) throw new AuthError('InvalidRequest', 'This factor is already confirmed')
    const taken = await takeTotpStep(ctx, factor, stringField(body, 'code') ?? '')
    if (taken === 'used') throw codeAlreadyUsed()
    if (taken === 'wrong') throw invalidCode()
    const first = !(await confirmedFactors(ctx, user.id)).length
    await store.confirmFactor(factor.id, new Date(ctx.now))
    const recoveryCodes = first ? await newRecoveryCodes(ctx, user.id, mfa.recoveryCodes, (id, hashes) => store.replaceRecoveryCodes(id, hashes)) : undefined
    await ctx.config.events.mfaEnrolled?.({ user, factor: eventView(factor) })
    // The sign-in that had to set it up goes on: its session starts now, with both factors.
    if (setup) await finishPending(ctx, setup, 'otp')
    return json(ctx, { ...(await listing(ctx, mfa, user.id)), ...(recoveryCodes && { newRecoveryCodes: recoveryCodes }), ...(setup && { url: setup.callbackUrl }) })
  }
  if (action === 'passkey-options') return json(ctx, { options: await keyOptions(ctx, user.id) })
  if (action === 'forget-device') {
    // Fewer trusted browsers only asks more: no fresh session needed, as for signing out.
    if (!(await forgetDevice(ctx, user.id, stringField(body, 'id') ?? ''))) throw new AuthError('InvalidRequest', 'Expected "id" to be one of your trusted devices', { status: 404 })
    return json(ctx, await listing(ctx, mfa, user.id))
  }
  requireFresh(ctx, me.signedInAt)
  if (action === 'remove') {
    const factor = await ownFactor(ctx, user, stringField(body, 'id'))
    // Removing a confirmed factor takes the factor's own proof: a stolen fresh session is not enough.
    if (factor.confirmedAt) await proveOwnFactor(ctx, user.id, body)
    await store.deleteFactor(factor.id)
    // Recovery codes stand in for factors: with none left, they go too.
    if (!(await confirmedFactors(ctx, user.id)).length) await store.replaceRecoveryCodes(user.id, [])
    if (factor.confirmedAt) await ctx.config.events.mfaRemoved?.({ user, factor: eventView(factor) })
    return json(ctx, await listing(ctx, mfa, user.id))
  }
  if (!(await confirmedFactors(ctx, user.id)).length) throw new AuthError('InvalidRequest', 'Recovery codes go with a second factor: enrol an authenticator app first')
  // A new set voids the owner's: as for a removal, a stolen fresh session is not enough.
  await proveOwnFactor(ctx, user.id, body)
  const recoveryCodes = await newRecoveryCodes(ctx, user.id, mfa.recoveryCodes, (id, hashes) => store.replaceRecoveryCodes(id, hashes))
  return json(ctx, { ...(await listing(ctx, mfa, user.id)), newRecoveryCodes: recoveryCodes })
}

/**
 * A second factor proven to manage the others: each try is a guess at the user's codes, counted
 * with the sign-in's second steps under the per-user `mfa` limit, so a stolen fresh session
 * cannot guess on without end.
 */
async function proveOwnFactor(ctx: Context, userId: string, body: Body): Promise<void> {
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'mfa', userId, ctx.now)
  await proveSecondFactor(ctx, userId, body)
}

/**
 * The built-in sign-in page posts its second step as a plain form: a refusal goes back to that
 * page with `?error=` (the pending sign-in stays, for the tries it has left), not to JSON.
 */
async function verifyFromForm(ctx: Context, mfa: ResolvedMfa): Promise<Reply> {
  const fromPage = !ctx.returnRedirect && /html/.test(ctx.incoming.header('accept') ?? '')
  try {
    return await verifySecondFactor(ctx, mfa)
  } catch (error) {
    if (!fromPage || !(error instanceof AuthError) || (error.type !== 'InvalidCode' && error.type !== 'CodeAlreadyUsed')) throw error
    return redirect(ctx, `${ctx.config.pages.signIn ?? `${ctx.baseUrl}/signin`}?error=${error.type}`)
  }
}

/**
 * Who manages factors here: the signed-in user, or, signed out, the user of a sign-in that must
 * set up a second factor first (its pending cookie), for `enroll` and `confirm` only.
 */
async function ownerOrSetup(ctx: Context): Promise<{ user: AdapterUser; signedInAt?: number; setup?: Pending }> {
  const me = await signedIn(ctx)
  if (me) return me
  const pending = await readPending(ctx)
  const user = pending?.setup ? await factorStore(ctx).getUser(pending.userId) : null
  if (!pending || !user) throw new AuthError('AccessDenied', 'Expected a signed-in user; sign in first', { status: 401 })
  return { user, setup: pending }
}

/**
 * GET /mfa/verify: what the pending sign-in of this browser can be completed with, for the
 * sign-in element to offer (`passkey` where the user has a key), and whether it may trust the device.
 */
async function pendingMethods(ctx: Context, mfa: ResolvedMfa): Promise<Reply> {
  const pending = await readPending(ctx)
  if (!pending) throw new AuthError('AccessDenied', 'No sign-in is waiting for a second factor in this browser; sign in first', { status: 401 })
  if (pending.setup) return json(ctx, { setup: true, methods: [], trustDevices: false })
  const methods = ['otp', 'recovery', ...((await countKeys(ctx, pending.userId)) ? ['passkey'] : [])]
  return json(ctx, { setup: false, methods, trustDevices: mfa.trustDevices })
}

/** The user's own authenticator app `id`; 404 for any other (it names nothing). */
async function ownFactor(ctx: Context, user: AdapterUser, id: string | undefined): Promise<AdapterFactor> {
  const factor = id ? (await appFactors(ctx, user.id)).find((f) => f.id === id) : undefined
  if (!factor) throw new AuthError('InvalidRequest', 'Expected "id" to be one of your factors', { status: 404 })
  return factor
}
