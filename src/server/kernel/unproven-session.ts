/**
 * A JWT session cannot be deleted, so one made with a passkey before its user's address was proven
 * carries a claim; a read after the proof (first-proof.ts) ends it, at one `getUser` per read until then.
 */
import type { AdapterAccount, AdapterUser, JWT, User } from '../../core/types.js'
import { useAdapter } from './adapter-methods.js'
import type { Context } from './context.js'

const unprovenClaim = 'latchkeyUnproven'

/**
 * Marks a new JWT session made with a passkey for a user whose address is unproven: the only
 * sessions someone else's registration can hold (such a user links no other account).
 */
export function markUnproven(user: AdapterUser | User, account: AdapterAccount | null, token: JWT): JWT {
  const unproven = account?.type === 'webauthn' && !(user as AdapterUser).emailVerified
  return unproven ? { ...token, [unprovenClaim]: true } : token
}

/** Keeps the mark across a rewrite of the token, whatever the `jwt` callback returned. */
export function carryUnproven(from: JWT, to: JWT): JWT {
  return from[unprovenClaim] === true ? { ...to, [unprovenClaim]: true } : to
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
