/**
 * Authentication: with an email (the options list that user's credentials) or discoverable
 * without one (the browser offers whatever passkeys it has for this RP, e.g. in the autofill).
 * An address without passkeys (unknown, or a user who has none) gets stand-in credentials
 * (`decoy.ts`) after the same reads, so the answer does not tell whether it has an account.
 */
import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser, WebAuthnConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'
import { completeSignIn, type SignInResult } from '../../sign-in/complete.js'
import { issueChallenge } from './challenge.js'
import type { ChallengeState } from './challenge.js'
import { checkCounter } from './counter.js'
import { decoyCredentials, type Descriptor } from './decoy.js'
import { WebAuthnRefusal } from './errors.js'
import { toCredential, transportsOf } from './records.js'
import { withHints } from './hints.js'
import { expectations, relyingParty } from './relying-party.js'
import { emailParam, signedInUser } from './user.js'

/** GET /webauthn-options/:provider?action=authenticate[&email=]: the request options, and the challenge cookie. */
export async function authenticationOptions(ctx: Context, provider: WebAuthnConfig) {
  const adapter = useAdapter(ctx.config, ['getUserByEmail', 'listAuthenticatorsByUserId'], 'passkey sign-in')
  const email = emailParam(ctx)
  const { allow, userId } = email ? await credentialsFor(ctx, adapter, email) : { allow: undefined, userId: undefined }
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx, provider).id,
    allowCredentials: allow,
    timeout: provider.timeout ?? 5 * 60_000,
    userVerification: provider.userVerification ?? 'preferred',
  })
  await issueChallenge(ctx, provider, { provider: provider.id, action: 'authenticate', challenge: options.challenge, userId })
  return withHints(options, provider)
}

/**
 * The address's user's credentials, else its stand-ins. Known or not, the same work is done, in
 * the same order: one user read beside the HMAC, one authenticator read (under an id no user has
 * for an unknown address), and the list mapped as the answer lists it.
 */
async function credentialsFor(
  ctx: Context,
  adapter: Required<Pick<Adapter, 'getUserByEmail' | 'listAuthenticatorsByUserId'>>,
  email: string,
): Promise<{ allow: Descriptor[]; userId?: string }> {
  const [user, decoys] = await Promise.all([adapter.getUserByEmail(email), decoyCredentials(ctx.config.secrets[0], email)])
  let keys: AdapterAuthenticator[] = []
  try {
    keys = await adapter.listAuthenticatorsByUserId(user?.id ?? crypto.randomUUID())
  } catch (error) {
    // A store whose ids are not text may refuse the made-up one, which finds nothing either.
    if (user) throw error
  }
  const real = keys.map((a) => ({ id: a.credentialID, transports: transportsOf(a) }))
  return user && real.length ? { allow: real, userId: user.id } : { allow: decoys }
}

/** POST /callback/:provider, action=authenticate: verifies the assertion, stores the counter, signs in. */
export async function verifyAuthentication(ctx: Context, provider: WebAuthnConfig, state: ChallengeState, response: AuthenticationResponseJSON): Promise<SignInResult> {
  const adapter = useAdapter(ctx.config, ['getAccount', 'linkAccount'], 'passkey sign-in')
  const { authenticator, user, userVerified } = await verifyAssertion(ctx, provider, state, response)
  const current = await signedInUser(ctx)
  if (current && current.id !== user.id) {
    throw new WebAuthnRefusal('verification', 'Signed in as another user: sign out before signing in with this passkey', { status: 403, type: 'AccessDenied' })
  }
  const account: AdapterAccount = { type: 'webauthn', provider: provider.id, providerAccountId: authenticator.providerAccountId, userId: user.id }
  // The authenticator is what ties the key to its user; an account row made by another provider id
  // (or lost) is relinked to that same user, so the sign-in below always resolves to them.
  if (!(await adapter.getAccount(account.providerAccountId, account.provider))) await adapter.linkAccount(account)
  // With user verification the passkey is two factors (something held, and a PIN or biometric).
  return completeSignIn(ctx, { user, account, amr: userVerified ? ['hwk', 'user'] : ['hwk'] })
}

/**
 * The assertion's checks, for a sign-in and for a second factor (features/mfa): the credential is
 * registered (to `state.userId` where the options named a user), the signature verifies against
 * our challenge, origin and RP ID, and the counter moves forward (then it is stored).
 */
export async function verifyAssertion(ctx: Context, provider: WebAuthnConfig, state: ChallengeState, response: AuthenticationResponseJSON): Promise<{ authenticator: AdapterAuthenticator; user: AdapterUser; userVerified: boolean }> {
  const adapter = useAdapter(ctx.config, ['getAuthenticator', 'updateAuthenticatorCounter', 'getUser'], 'passkey sign-in')
  const authenticator = await adapter.getAuthenticator(response.id)
  if (!authenticator) {
    throw new WebAuthnRefusal('unknown-credential', 'No registered passkey matches the one the browser used (it may have been removed)', { status: 401 })
  }
  if (state.userId && authenticator.userId !== state.userId) {
    throw new WebAuthnRefusal('verification', 'Expected a passkey of the account the email names, got one of another account', { status: 401 })
  }
  // The user is the stored credential's, not the user handle the authenticator sends back: the
  // handle is not signed, and for a new user it is the id latchkey proposed, which an adapter may
  // replace with its own (a serial, a new UUID).
  let verified
  try {
    verified = await verifyAuthenticationResponse({
      response,
      ...expectations(ctx, provider, state.challenge),
      // Counter 0 turns off the library's own counter check; ours follows, after the signature is known good.
      credential: toCredential(authenticator),
    })
  } catch (cause) {
    throw new WebAuthnRefusal('verification', `The passkey sign-in did not verify: ${(cause as Error).message}`, { cause, status: 401 })
  }
  if (!verified.verified) throw new WebAuthnRefusal('verification', 'The passkey signature did not verify', { status: 401 })
  const { newCounter } = verified.authenticationInfo
  checkCounter(authenticator.counter, newCounter)
  try {
    await adapter.updateAuthenticatorCounter(authenticator.credentialID, newCounter)
  } catch (cause) {
    throw new AuthError('Configuration', `Storing the passkey's counter failed: updateAuthenticatorCounter threw (${(cause as Error).message})`, { cause, status: 500 })
  }
  const user = await adapter.getUser(authenticator.userId)
  if (!user) throw new WebAuthnRefusal('unknown-credential', 'The passkey belongs to a user who no longer exists', { status: 401 })
  return { authenticator, user, userVerified: verified.authenticationInfo.userVerified }
}
