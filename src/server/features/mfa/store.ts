/** The adapter's factor methods, as the mfa feature uses them (checked at start-up: options.ts). */
import type { Adapter, AdapterFactor, AdapterUser } from '../../../core/types.js'
import type { Context } from '../../kernel/context.js'
import type { mfaMethods } from './options.js'

export type FactorStore = Required<Pick<Adapter, (typeof mfaMethods)[number]>>

export const factorStore = (ctx: Context) => ctx.config.adapter as FactorStore

/** The user's authenticator apps, confirmed or not (trusted devices are factors in the store, not to the user). */
export async function appFactors(ctx: Context, userId: string): Promise<AdapterFactor[]> {
  return (await factorStore(ctx).listFactorsByUserId(userId)).filter((f) => f.type === 'totp')
}

/** The user's confirmed authenticator apps: with one, the user has two-step sign-in on. */
export async function confirmedFactors(ctx: Context, userId: string): Promise<AdapterFactor[]> {
  return (await appFactors(ctx, userId)).filter((f) => f.confirmedAt)
}

/**
 * The first proof of the user's address (sign-in/first-proof.ts): whoever held the account before
 * it was proven may have set up an app, recovery codes and trusted devices (all factors in the
 * store); none of them is the owner's, so all go, and no sign-in of the owner asks for them. Each
 * confirmed app removed fires `mfaRemoved`, so the app can tell the owner to set theirs up again.
 */
export async function removeFactorsMadeBefore(ctx: Context, user: AdapterUser): Promise<void> {
  const store = factorStore(ctx)
  for (const factor of await store.listFactorsByUserId(user.id)) {
    await store.deleteFactor(factor.id)
    if (factor.type === 'totp' && factor.confirmedAt) await ctx.config.events.mfaRemoved?.({ user, factor: { id: factor.id, type: 'totp', label: factor.label } })
  }
  if (await store.countRecoveryCodes(user.id)) await store.replaceRecoveryCodes(user.id, [])
}
