/** The ceremony of a key proof (key-proofs.ts): its options and its answer's checks, as a sign-in's but for one user. */
import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { WebAuthnConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'
import type { KeyProofPurpose, KeyProofs } from '../../kernel/types.js'
import { verifyAssertion } from './authenticate.js'
import { readResponse } from './callback.js'
import { issueChallenge, takeChallenge } from './challenge.js'
import { transportsOf } from './records.js'
import { relyingParty } from './relying-party.js'

/** The request options for `userId`'s keys, and the challenge cookie; null when the user has none. */
export async function proofOptions(ctx: Context, provider: WebAuthnConfig, userId: string, ask: Parameters<KeyProofs['options']>[2]) {
  const adapter = useAdapter(ctx.config, ['listAuthenticatorsByUserId'], ask.needFor)
  const keys = await adapter.listAuthenticatorsByUserId(userId)
  if (!keys.length) return null
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx, provider).id,
    allowCredentials: keys.map((k) => ({ id: k.credentialID, transports: transportsOf(k) as never })),
    timeout: provider.timeout ?? 5 * 60_000,
    userVerification: ask.userVerification,
  })
  await issueChallenge(ctx, provider, { provider: provider.id, action: ask.purpose, challenge: options.challenge, userId })
  return options
}

/** True when `assertion` is a valid answer by one of `userId`'s keys to a challenge issued here for `purpose`; any refusal is false. */
export async function verifyProof(ctx: Context, provider: WebAuthnConfig, userId: string, purpose: KeyProofPurpose, assertion: unknown): Promise<boolean> {
  try {
    const response = readResponse(assertion)
    const state = await takeChallenge(ctx, provider, purpose, response)
    if (state.userId !== userId) return false
    const { user } = await verifyAssertion(ctx, provider, state, response as unknown as AuthenticationResponseJSON)
    return user.id === userId
  } catch (error) {
    if (error instanceof AuthError && error.status < 500) return false
    throw error
  }
}
