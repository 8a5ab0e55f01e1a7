/**
 * A JWT session cannot be deleted, so one made while its user's address was unproven carries a
 * claim; a read after the proof (first-proof.ts) ends it, at one `getUser` per read until then.
 * A session of a proven user, or one where nothing can prove an address, is not marked and costs
 * no read.
 */
import type { AdapterUser, JWT, User } from '../../core/types.js'
import { useAdapter } from './adapter-methods.js'
import type { Context } from './context.js'
import { methodOf } from './plugin.js'
import { instanceKey } from './state.js'
import type { ResolvedConfig } from './types.js'

const unprovenClaim = 'latchkeyUnproven'

/**
 * Marks a new JWT session of a stored user whose address is unproven: whoever made it may not be
 * the address's owner (a passkey, a password sign-up, an OAuth account linked before the proof),
 * and it must not outlive the owner's proof.
 */
export function markUnproven(config: ResolvedConfig, user: AdapterUser | User, token: JWT): JWT {
  const unproven = !!config.adapter && !(user as AdapterUser).emailVerified && provesAddresses(config)
  return unproven ? { ...token, [unprovenClaim]: true } : token
}

const proving = instanceKey<boolean>('proves addresses')

/** Whether a sign-in here can prove an address (an email provider, passwords, a provider trusted to link by email). */
function provesAddresses(config: ResolvedConfig): boolean {
  return proving.ensure(config, () => [...config.providers.values()].some((p) => methodOf(config, p)?.provesAddress?.(p) === true))
}

/** Keeps the mark across a rewrite of the token, whatever the `jwt` callback returned. */
export function carryUnproven(from: JWT, to: JWT): JWT {
  return from[unprovenClaim] === true ? { ...to, [unprovenClaim]: true } : to
}

/** The token without the mark: its holder just proved the user's address (features/identity, a new address confirmed). */
export function withoutUnproven(token: JWT): JWT {
  const { [unprovenClaim]: _mark, ...rest } = token
  return rest
}

/** Whether the token carries the mark: only then does a read ask the store (`outlivedProof`). */
export function isUnproven(token: JWT): boolean {
  return token[unprovenClaim] === true
}

/** Whether a marked JWT session has outlived the proof of its user's address (or its user). */
export async function outlivedProof(ctx: Context, token: JWT): Promise<boolean> {
  if (!isUnproven(token)) return false
  if (typeof token.sub !== 'string') return true
  const user = await useAdapter(ctx.config, ['getUser'], 'JWT sessions of unproven addresses').getUser(token.sub)
  return !user || Boolean(user.emailVerified)
}
