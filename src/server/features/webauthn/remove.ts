/** Removing one passkey: its authenticator, then its `webauthn` account rows. */
import type { AdapterAuthenticator } from '../../../core/types.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'

export async function removePasskeyRecords(ctx: Context, authenticator: AdapterAuthenticator): Promise<void> {
  await useAdapter(ctx.config, ['deleteAuthenticator'], 'removing a passkey').deleteAuthenticator(authenticator.credentialID)
  await unlinkAccounts(ctx, authenticator)
}

/**
 * Drops the account rows of the removed credential under every WebAuthn provider id, when the
 * adapter can unlink. A row left behind signs nobody in: a passkey sign-in starts from the authenticator.
 */
async function unlinkAccounts(ctx: Context, authenticator: AdapterAuthenticator): Promise<void> {
  const adapter = ctx.config.adapter!
  if (!adapter.unlinkAccount || !adapter.getAccount) return
  for (const p of ctx.config.providers.values()) {
    if (p.type !== 'webauthn') continue
    const account = await adapter.getAccount(authenticator.providerAccountId, p.id)
    if (account && account.userId === authenticator.userId) await adapter.unlinkAccount({ provider: p.id, providerAccountId: authenticator.providerAccountId })
  }
}
