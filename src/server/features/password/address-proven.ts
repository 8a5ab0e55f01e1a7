/** The password feature's part in the first proof of an address (sign-in/first-proof.ts), loaded on its first use. */
import type { AdapterUser } from '../../../core/types.js'
import type { Context } from '../../kernel/context.js'
import { ownProof } from './own-proof.js'
import { passwordStore } from './store.js'

/**
 * The first proof of an address by another way in (an email link, an OAuth account linked by
 * email): a password set before it, by whoever signed up with the address, goes.
 */
export async function removeUnprovenPassword(ctx: Context, user: AdapterUser): Promise<{ removed: number }> {
  if (ownProof.has(ctx)) return { removed: 0 }
  const store = passwordStore(ctx)
  if (!(await store.getPasswordHash(user.id))) return { removed: 0 }
  await store.setPasswordHash(user.id, null)
  return { removed: 1 }
}
