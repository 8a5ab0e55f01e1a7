/**
 * The one place the server writes a one-time record (email token, WebAuthn or DBSC challenge).
 * Every write also purges a bounded batch of expired records of every kind, so the store stays
 * bounded with no cron job. Adapters without `deleteVerificationTokens` (Auth.js's) purge nothing.
 */
import type { Adapter, VerificationToken } from '../../core/types.js'
import { useAdapter } from './adapter-methods.js'
import type { Context } from './context.js'

/** Expired records one write deletes at most: a backlog is cleared over many writes, never by one slow one. */
export const purgeBatch = 100

/**
 * Stores `record`. With `replace`, first drops the other records of its identifier, so it is the
 * only one outstanding (for identifiers that name one session, never a shared one).
 */
export async function storeOneTimeRecord(ctx: Context, record: VerificationToken, needFor: string, options: { replace?: boolean } = {}): Promise<void> {
  const adapter: Adapter & Required<Pick<Adapter, 'createVerificationToken'>> = useAdapter(ctx.config, ['createVerificationToken'], needFor)
  const purges = typeof adapter.deleteVerificationTokens === 'function'
  const store = async () => {
    if (purges && options.replace) await adapter.deleteVerificationTokens!({ identifier: record.identifier })
    await adapter.createVerificationToken(record)
  }
  // The new record is not expired, so the purge may run beside the write.
  await Promise.all([purges && adapter.deleteVerificationTokens!({ expiredBefore: new Date(ctx.now), limit: purgeBatch }), store()])
}
