/**
 * The store stays bounded with no cron job, as the kernel's one-time records do: a request that
 * writes (a pending request, a code, a token answer, a device authorization) also deletes a
 * bounded batch of each kind of row nothing can use any more, once per request, after its answer.
 */
import { afterAnswer, requestKey, type Context } from 'latchkey/server'
import { oauthStore, serverOptions } from './instance.js'

/** How long an authorization code lasts. */
export const codeSeconds = 60
const purgeLimit = 100
/** An expired device authorization is kept this long, so a late poll hears expired_token rather than an unknown code. */
const keepExpiredDevice = 60 * 60 * 1000
const purged = requestKey<true>('oauth-server records purged')

/** Off the request's path (after its answer): a token request waits for none of these deletes. */
export async function purgeExpired(ctx: Context): Promise<void> {
  if (purged.has(ctx)) return
  purged.set(ctx, true)
  const { accessTokenTtl } = serverOptions.get(ctx.config)
  const store = oauthStore(ctx.config)
  const now = ctx.now
  afterAnswer(ctx, "The authorization server's purge of records nothing can use", 'AdapterError', async () => {
    // A grant's last access token was issued at most a code's lifetime after its last use (store.ts), and lives accessTokenTtl.
    await store.purgeOAuthRecords(new Date(now), new Date(now - (accessTokenTtl + codeSeconds) * 1000), purgeLimit)
    await store.purgeOAuthDeviceRecords(new Date(now - keepExpiredDevice), purgeLimit)
  })
}
