/**
 * Key proofs (kernel/types.ts `KeyProofs`): an assertion by one of a user's registered keys over
 * a challenge made for another feature's step (mfa's second factor), never a sign-in by itself.
 * The keys of the app's first WebAuthn provider serve. The ceremony code loads on first use.
 */
import type { WebAuthnConfig } from '../../../core/types.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import { lazy } from '../../kernel/lazy.js'
import type { KeyProofs } from '../../kernel/types.js'

const ceremony = lazy(() => import('./key-proof-ceremony.js'))

export function keyProofs(provider: WebAuthnConfig): KeyProofs {
  return {
    async keys(ctx, userId, needFor) {
      const adapter = useAdapter(ctx.config, ['listAuthenticatorsByUserId'], needFor)
      return (await adapter.listAuthenticatorsByUserId(userId)).map((k) => k.credentialID)
    },
    options: async (ctx, userId, ask) => (await ceremony()).proofOptions(ctx, provider, userId, ask),
    verify: async (ctx, userId, purpose, assertion) => (await ceremony()).verifyProof(ctx, provider, userId, purpose, assertion),
  }
}
