/** The adapter's factor methods, as the mfa feature uses them (checked at start-up: options.ts). */
import type { Adapter, AdapterFactor } from '../../../core/types.js'
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
