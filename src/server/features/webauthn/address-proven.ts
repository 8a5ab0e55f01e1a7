/** The first proof of a user's address removes the passkeys made before it (feature.ts `onAddressProven`). */
import type { AdapterUser } from '../../../core/types.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'
import { toPasskeyInfo } from './records.js'
import { removePasskeyRecords } from './remove.js'

export async function removeUnprovenPasskeys(ctx: Context, user: AdapterUser): Promise<{ removed: number }> {
  const adapter = useAdapter(ctx.config, ['listAuthenticatorsByUserId', 'deleteAuthenticator'], 'proving an address where passkeys can be registered')
  const passkeys = await adapter.listAuthenticatorsByUserId(user.id)
  for (const passkey of passkeys) await removePasskeyRecords(ctx, passkey)
  if (passkeys.length) await ctx.config.events.passkeysRemoved?.({ user, passkeys: passkeys.map(toPasskeyInfo) })
  return { removed: passkeys.length }
}
