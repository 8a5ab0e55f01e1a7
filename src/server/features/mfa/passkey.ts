/**
 * A passkey or security key as the second factor: an assertion by one of the user's registered
 * keys, over a challenge made for this step (`second-factor`, which no sign-in accepts). It stands
 * for "something held" whatever the first factor was; user verification is not asked.
 * The WebAuthn ceremony code loads on first use, as the webauthn feature's does.
 */
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { WebAuthnConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'

/** The app's WebAuthn provider whose keys serve as second factors: the first one configured. */
export function keyProvider(ctx: Context): WebAuthnConfig | undefined {
  for (const p of ctx.config.providers.values()) if (p.type === 'webauthn') return p as unknown as WebAuthnConfig
}

/** How many keys `userId` could answer with (0 where no WebAuthn provider is configured). */
export async function countKeys(ctx: Context, userId: string): Promise<number> {
  if (!keyProvider(ctx)) return 0
  const adapter = useAdapter(ctx.config, ['listAuthenticatorsByUserId'], 'a passkey as second factor')
  return (await adapter.listAuthenticatorsByUserId(userId)).length
}

/** The request options for `userId`'s keys, and the challenge cookie. */
export async function keyOptions(ctx: Context, userId: string) {
  // Each one stores a challenge, as the sign-in's options do: the same limit.
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'passkeyOptions', null, ctx.now)
  const provider = keyProvider(ctx)
  const adapter = useAdapter(ctx.config, ['listAuthenticatorsByUserId'], 'a passkey as second factor')
  const keys = provider ? await adapter.listAuthenticatorsByUserId(userId) : []
  if (!provider || !keys.length) throw new AuthError('InvalidRequest', 'This account has no passkey or security key: use a code from the authenticator app or a recovery code')
  const [{ generateAuthenticationOptions }, { issueChallenge }, { relyingParty }, { transportsOf }] = await Promise.all([
    import('@simplewebauthn/server'),
    import('../webauthn/challenge.js'),
    import('../webauthn/relying-party.js'),
    import('../webauthn/records.js'),
  ])
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx, provider).id,
    allowCredentials: keys.map((k) => ({ id: k.credentialID, transports: transportsOf(k) as never })),
    timeout: provider.timeout ?? 5 * 60_000,
    userVerification: 'discouraged',
  })
  await issueChallenge(ctx, provider, { provider: provider.id, action: 'second-factor', challenge: options.challenge, userId })
  return options
}

/** True when `assertion` is a valid answer by one of `userId`'s keys to a challenge issued here; any failure is false. */
export async function proveKey(ctx: Context, userId: string, assertion: unknown): Promise<boolean> {
  const provider = keyProvider(ctx)
  if (!provider) return false
  const [{ readResponse }, { takeChallenge }, { verifyAssertion }] = await Promise.all([
    import('../webauthn/callback.js'),
    import('../webauthn/challenge.js'),
    import('../webauthn/authenticate.js'),
  ])
  try {
    const response = readResponse(assertion)
    const state = await takeChallenge(ctx, provider, 'second-factor', response)
    if (state.userId !== userId) return false
    const { user } = await verifyAssertion(ctx, provider, state, response as unknown as AuthenticationResponseJSON)
    return user.id === userId
  } catch (error) {
    if (error instanceof AuthError && error.status < 500) return false
    throw error
  }
}
