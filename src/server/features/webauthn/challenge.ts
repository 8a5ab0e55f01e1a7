/**
 * The ceremony's challenge. It travels to the browser in the options and back inside the signed
 * response; the server keeps it in an encrypted, short-lived, HTTP-only cookie (sealed with the
 * cookie name as salt, each entry bound to a provider id and an action).
 *
 * The cookie holds the few most recent challenges, not one: a page that waits in the autofill
 * (conditional UI) must still work after another tab asked for options. The callback picks the
 * entry whose challenge the response signed, and removes it.
 *
 * A cookie alone cannot be single-use: whoever holds a copy can send it again until it expires.
 * So each challenge also gets a one-time record in the adapter, made with `createVerificationToken`
 * and consumed with `useVerificationToken` (identifier `webauthn:<provider id>`, token the HMAC of the
 * challenge under the secret). The record lives in the shared database, never in one process's
 * memory, so a challenge is accepted once across every server. Unused records expire with the
 * cookie and are purged by later writes (one-time-secrets.ts).
 */
import type { WebAuthnConfig } from '../../../core/types.js'
import { fromBase64Url } from '../../../core/encoding.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import { clearCookie, setCookie, type Context } from '../../kernel/context.js'
import { hmacHex } from '../../kernel/crypto.js'
import { seal, unseal } from '../../kernel/jwt.js'
import { storeOneTimeRecord } from '../../kernel/one-time-secrets.js'
import type { KeyProofPurpose } from '../../kernel/types.js'
import { WebAuthnRefusal } from './errors.js'
import { challengeCookie } from './cookies.js'

/** A key proof's purpose (key-proofs.ts), e.g. `second-factor`: an assertion for another step, never a sign-in by itself. */
export type CeremonyAction = 'register' | 'authenticate' | KeyProofPurpose

export interface ChallengeState {
  provider: string
  action: CeremonyAction
  /** Base64url, as in the options. */
  challenge: string
  /** register: the user the key is for (a fresh id for a new user); authenticate with an email: its user. */
  userId?: string
  /** register: the new user's details. */
  email?: string
  name?: string | null
  newUser?: boolean
  /** register: an automatic upgrade right after a sign-in (upgrade.ts), which may come without user presence. */
  upgrade?: boolean
}

interface Entry extends ChallengeState {
  /** Expiry, in milliseconds. */
  until: number
}

/** Extra time after the ceremony's timeout, for the round trip that posts the response. */
const graceMs = 60_000
/** Challenges kept at once (tabs or ceremonies in flight); the oldest goes first. */
const maxEntries = 4

const recordIdentifier = (providerId: string) => `webauthn:${providerId}`
const recordToken = (secret: string, challenge: string) => hmacHex(secret, `webauthn-challenge:${challenge}`)

async function readEntries(ctx: Context): Promise<Entry[]> {
  const raw = ctx.cookies.get(challengeCookie.of(ctx))
  if (!raw) return []
  const payload = await unseal<{ entries?: Entry[] }>(raw, ctx.config.secrets, challengeCookie.of(ctx), Math.floor(ctx.now / 1000))
  return (Array.isArray(payload?.entries) ? payload.entries : []).filter((e) => e.until > ctx.now)
}

async function writeEntries(ctx: Context, entries: Entry[]): Promise<void> {
  if (!entries.length) return clearCookie(ctx, challengeCookie.of(ctx))
  const until = Math.max(...entries.map((e) => e.until))
  const sealed = await seal({ entries }, ctx.config.secrets, challengeCookie.of(ctx), {
    now: Math.floor(ctx.now / 1000),
    expires: Math.ceil(until / 1000),
  })
  setCookie(ctx, challengeCookie.of(ctx), sealed, { expires: new Date(until) })
}

/** Adds the challenge to the cookie and stores its one-time record. */
export async function issueChallenge(ctx: Context, provider: WebAuthnConfig, state: ChallengeState): Promise<void> {
  const until = ctx.now + (provider.timeout ?? 5 * 60_000) + graceMs
  const record = { identifier: recordIdentifier(provider.id), token: await recordToken(ctx.config.secrets[0], state.challenge), expires: new Date(until) }
  await storeOneTimeRecord(ctx, record, 'WebAuthn challenges')
  const entries = [...(await readEntries(ctx)), { ...state, until }].slice(-maxEntries)
  await writeEntries(ctx, entries)
}

/**
 * Takes the challenge the response signed out of the cookie, then consumes its one-time record.
 * Whatever follows (even a failed verification), the challenge cannot be used again.
 */
export async function takeChallenge(
  ctx: Context,
  provider: WebAuthnConfig,
  action: CeremonyAction,
  response: { response?: unknown },
): Promise<ChallengeState> {
  const signed = signedChallenge(response)
  const entries = await readEntries(ctx)
  if (!entries.length) {
    if (ctx.cookies.has(challengeCookie.of(ctx))) clearCookie(ctx, challengeCookie.of(ctx))
    throw new WebAuthnRefusal('challenge', 'Expected the challenge cookie set by GET /webauthn-options, but it is missing or expired (or cookies are blocked)')
  }
  const entry = entries.find((e) => e.challenge === signed)
  if (!entry) {
    throw new WebAuthnRefusal('challenge', 'The response signed a challenge this browser was not given, or one already used; ask for new options')
  }
  await writeEntries(ctx, entries.filter((e) => e !== entry))
  if (entry.provider !== provider.id) {
    throw new WebAuthnRefusal('challenge', `Expected a challenge for provider "${provider.id}", got one for "${entry.provider}"`)
  }
  if (entry.action !== action) {
    throw new WebAuthnRefusal('challenge', `Expected a challenge for action "${action}", got one for "${entry.action}"`)
  }
  const adapter = useAdapter(ctx.config, ['useVerificationToken'], 'WebAuthn challenges')
  let record = null
  // Every secret in rotation is tried, so a ceremony that spans a rotation still completes.
  for (const secret of ctx.config.secrets) {
    record = await adapter.useVerificationToken({ identifier: recordIdentifier(provider.id), token: await recordToken(secret, entry.challenge) })
    if (record) break
  }
  if (!record) throw new WebAuthnRefusal('challenge', 'This challenge was already used; ask for new options')
  if (record.expires.getTime() <= ctx.now) throw new WebAuthnRefusal('challenge', 'This challenge has expired; ask for new options')
  const { until: _until, ...state } = entry
  return state
}

/** The challenge inside the response's client data (verified again, with the signature, by the library). */
function signedChallenge(response: { response?: unknown }): string {
  const clientDataJSON = (response.response as { clientDataJSON?: unknown } | undefined)?.clientDataJSON
  try {
    if (typeof clientDataJSON !== 'string') throw new Error('not a string')
    const data = JSON.parse(new TextDecoder().decode(fromBase64Url(clientDataJSON))) as { challenge?: unknown }
    if (typeof data.challenge !== 'string') throw new Error('no challenge')
    return data.challenge
  } catch {
    throw new WebAuthnRefusal('invalid', 'Expected "data.response.clientDataJSON" to be base64url JSON with a challenge', { type: 'InvalidRequest' })
  }
}
