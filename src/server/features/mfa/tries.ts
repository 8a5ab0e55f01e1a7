/**
 * The second step's tries, counted in the store (the kernel's one-time-secret service, whose
 * attempts are counted by one atomic write), so servers sharing the store share the count, with
 * or without rate limits. One row per user, `mfa-tries:<user id>`, started afresh by each pending
 * sign-in: the store stays bounded by its users, and each first-factor success buys `maxTries`
 * tries at most.
 */
import type { Context } from '../../kernel/context.js'
import { countTry as countInStore, startCount, type CodeKind } from '../../kernel/one-time-secrets.js'

export const maxTries = 5

/** A code nobody is told (32 hex digits, never typed): the row only keeps the count. Its lifetime is the pending sign-in's. */
const tries: CodeKind = { purpose: 'mfa-tries', length: 32, alphabet: '0123456789abcdef', maxAge: 10 * 60, maxAttempts: maxTries, needFor: 'second factors' }

/** Starts the count for a new pending sign-in of `userId`, until `expires`. */
export async function startTries(ctx: Context, userId: string, expires: Date): Promise<void> {
  await startCount(ctx, tries, userId, expires)
}

/** Counts one try; false once the tries are spent (or the store holds no count: fail closed). */
export function countTry(ctx: Context, userId: string): Promise<boolean> {
  return countInStore(ctx, tries, userId)
}
