/**
 * Registration: a new user with a new passkey, or a signed-in user adding one to their own account.
 * Nobody else can add a key to an existing account: while signed out, an email that already has a
 * user is refused (the owner signs in first), so a passkey never silently joins someone's account.
 * That refusal comes only at the verify step, answered as a response that did not verify: the
 * options are the same for every address, so they do not tell whether it has an account.
 */
import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server'
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser, WebAuthnConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { toBase64Url } from '../../../core/encoding.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'
import { completeSignIn, type SignInResult } from '../../sign-in/complete.js'
import { issueChallenge, type ChallengeState } from './challenge.js'
import { WebAuthnRefusal } from './errors.js'
import { transportsOf } from './records.js'
import { withHints } from './hints.js'
import { expectations, relyingParty } from './relying-party.js'
import { requireFresh } from '../../kernel/fresh.js'
import { newUserInfo, signedInUser } from './user.js'
import { signedIn } from '../../kernel/manage.js'
import { takeUpgrade } from './upgrade.js'

const encoder = new TextEncoder()

/** GET /webauthn-options/:provider?action=register: the creation options, and the challenge cookie. */
export async function registrationOptions(ctx: Context, provider: WebAuthnConfig) {
  const adapter = useAdapter(ctx.config, ['listAuthenticatorsByUserId'], 'passkey registration')
  const rp = relyingParty(ctx, provider)
  const signedInNow = await signedIn(ctx)
  const current = signedInNow?.user
  // An automatic upgrade (upgrade.ts) must follow this session's own sign-in, once.
  const upgrade = ctx.url.searchParams.get('upgrade') === '1'
  if (upgrade) await takeUpgrade(ctx, provider, signedInNow)
  // Adding a key to an account is for its owner: an old (or stolen) session must sign in again first.
  if (signedInNow) requireFresh(ctx, signedInNow.signedInAt)
  let state: Omit<ChallengeState, 'challenge'>
  let exclude: AdapterAuthenticator[] = []
  if (current) {
    const asked = ctx.url.searchParams.get('email')
    if (asked && asked.trim().toLowerCase() !== current.email.toLowerCase()) {
      throw new WebAuthnRefusal('other-account', 'Signed in as another user: a passkey can only be added to your own account, not to the email address given', { status: 403, type: 'AccessDenied' })
    }
    state = { provider: provider.id, action: 'register', userId: current.id, email: current.email, name: current.name ?? null, newUser: false, ...(upgrade && { upgrade }) }
    exclude = await adapter.listAuthenticatorsByUserId(current.id)
  } else {
    // No user lookup here, taken or not: verifyRegistration refuses a taken address.
    const info = await newUserInfo(ctx, provider)
    state = { provider: provider.id, action: 'register', userId: crypto.randomUUID(), email: info.email, name: info.name, newUser: true }
  }
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: state.email!,
    userDisplayName: state.name ?? state.email!,
    userID: encoder.encode(state.userId),
    timeout: provider.timeout ?? 5 * 60_000,
    attestationType: 'none',
    excludeCredentials: exclude.map((a) => ({ id: a.credentialID, transports: transportsOf(a) })),
    authenticatorSelection: {
      residentKey: provider.residentKey ?? 'preferred',
      // Conditional create cannot require verification: the password manager creates the key silently.
      userVerification: upgrade && provider.userVerification === 'required' ? 'preferred' : (provider.userVerification ?? 'preferred'),
    },
  })
  await issueChallenge(ctx, provider, { ...state, challenge: options.challenge })
  return withHints(options, provider)
}

/** POST /callback/:provider, action=register: verifies, stores user, account and authenticator, and signs in. */
export async function verifyRegistration(ctx: Context, provider: WebAuthnConfig, state: ChallengeState, response: RegistrationResponseJSON): Promise<SignInResult> {
  const adapter = useAdapter(
    ctx.config,
    ['getUser', 'getUserByEmail', 'createUser', 'linkAccount', 'getAuthenticator', 'createAuthenticator'],
    'passkey registration',
  )
  let verified
  try {
    const expected = expectations(ctx, provider, state.challenge)
    // An upgrade's authenticator may skip presence and verification (WebAuthn L3, conditional create); only such a challenge allows it.
    verified = await verifyRegistrationResponse({
      response,
      ...expected,
      ...(state.upgrade && { requireUserPresence: false, requireUserVerification: false }),
    })
  } catch (cause) {
    throw new WebAuthnRefusal('verification', `The passkey registration did not verify: ${(cause as Error).message}`, { cause })
  }
  if (!verified.verified) throw new WebAuthnRefusal('verification', 'The passkey registration did not verify')
  const info = verified.registrationInfo
  const credentialID = info.credential.id
  if (await adapter.getAuthenticator(credentialID)) {
    throw new WebAuthnRefusal('already-registered', 'This passkey is already registered', { status: 409 })
  }

  // The key is for the user the options were made for: still signed in as them, or still a new email.
  let user: AdapterUser | null
  if (state.newUser) {
    if (await adapter.getUserByEmail(state.email!)) {
      // Answered exactly as a response that did not verify (reason, type, status); only the log says why.
      throw new WebAuthnRefusal('verification', 'The passkey registration is for an email address that already has an account: its owner signs in first, then adds a passkey')
    }
    user = null
  } else {
    const current = await signedInUser(ctx)
    if (!current || current.id !== state.userId) {
      throw new WebAuthnRefusal('signed-out', 'Expected the user who asked for these options to still be signed in', { status: 401, type: 'AccessDenied' })
    }
    user = current
  }

  const account: AdapterAccount = { type: 'webauthn', provider: provider.id, providerAccountId: credentialID, userId: state.userId! }
  const authenticator: AdapterAuthenticator = {
    credentialID,
    credentialPublicKey: toBase64Url(info.credential.publicKey),
    userId: state.userId!,
    providerAccountId: credentialID,
    counter: info.credential.counter,
    credentialDeviceType: info.credentialDeviceType,
    credentialBackedUp: info.credentialBackedUp,
    transports: info.credential.transports?.join(',') ?? null,
    createdAt: new Date(ctx.now),
    // The all-zero AAGUID names no model (attestation removed, or a U2F key).
    aaguid: info.aaguid && info.aaguid !== '00000000-0000-0000-0000-000000000000' ? info.aaguid : null,
  }
  const created: Created = { user: null, account: false, authenticator: false }
  let done: SignInResult
  try {
    if (!user) {
      user = await adapter.createUser({ id: state.userId!, email: state.email!, emailVerified: null, name: state.name ?? null, image: null })
      created.user = user
      // The user is the one the adapter answers: some choose their own id (a serial, a new UUID).
      account.userId = authenticator.userId = user.id
    }
    await adapter.linkAccount(account)
    created.account = true
    try {
      await adapter.createAuthenticator(authenticator)
    } catch (cause) {
      throw new AuthError('Configuration', `Storing the new passkey failed: createAuthenticator threw (${(cause as Error).message})`, { cause, status: 500 })
    }
    created.authenticator = true
    done = await completeSignIn(ctx, { user, account, amr: ['hwk'] })
  } catch (error) {
    await undo(ctx, created, account)
    throw error
  }
  // A step due first (a second factor) completes no registration: nothing made stays, as on a refusal.
  if (!done.started) {
    await undo(ctx, created, account)
    return done
  }
  if (created.user) await ctx.config.events.createUser?.({ user: created.user })
  await ctx.config.events.linkAccount?.({ user, account })
  return done
}

interface Created {
  user: AdapterUser | null
  account: boolean
  authenticator: boolean
}

/**
 * Removes what a failed registration made, so no half-made user stays behind: a new user goes
 * whole (`deleteUser` cascades to its account, authenticator and session); an existing user loses
 * only the new account and key. Undo failures are logged; the original error is what the caller sees.
 */
async function undo(ctx: Context, created: Created, account: AdapterAccount): Promise<void> {
  const adapter = ctx.config.adapter!
  const steps: Array<[keyof Adapter, () => unknown]> = []
  if (created.user && adapter.deleteUser) {
    const id = created.user.id
    steps.push(['deleteUser', () => adapter.deleteUser!(id)])
  } else {
    if (created.authenticator) steps.push(['deleteAuthenticator', () => adapter.deleteAuthenticator!(account.providerAccountId)])
    if (created.account) steps.push(['unlinkAccount', () => adapter.unlinkAccount!(account)])
    if (created.user) steps.push(['deleteUser', () => adapter.deleteUser!(created.user!.id)])
  }
  for (const [name, step] of steps) {
    if (typeof adapter[name] !== 'function') {
      ctx.config.logger.error(new AuthError('AdapterError', `Undoing a failed passkey registration needs ${name}, which the adapter lacks; a partial record remains`))
      continue
    }
    try {
      await step()
    } catch (cause) {
      ctx.config.logger.error(new AuthError('AdapterError', `Undoing a failed passkey registration: ${name} threw`, { cause }))
    }
  }
}
