/**
 * The second step's tries, counted in the store (the adapter's one-time code engine, whose
 * attempts are counted by one atomic write), so servers sharing the store share the count, with
 * or without rate limits. One row per user, started afresh by each pending sign-in: the store
 * stays bounded by its users, and each first-factor success buys `maxTries` tries at most.
 */
import type { Context } from '../../kernel/context.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import { sha256Hex } from '../../kernel/crypto.js'

export const maxTries = 5

const identifier = (userId: string) => `mfa-tries:${userId}`

/** Starts the count for a new pending sign-in of `userId`, until `expires`. */
export async function startTries(ctx: Context, userId: string, nonce: string, expires: Date): Promise<void> {
  const adapter = useAdapter(ctx.config, ['createVerificationCode'], 'second factors')
  await adapter.createVerificationCode({ identifier: identifier(userId), code: await sha256Hex(`mfa-tries|${nonce}`), expires })
}

/** Counts one try; false once the tries are spent (or the store holds no count: fail closed). */
export async function countTry(ctx: Context, userId: string): Promise<boolean> {
  const adapter = useAdapter(ctx.config, ['useVerificationCode'], 'second factors')
  // A candidate no stored count can equal: each call counts one attempt and uses nothing.
  const found = await adapter.useVerificationCode({ identifier: identifier(userId), codes: ['-'], maxAttempts: maxTries })
  return found.result === 'wrong'
}
