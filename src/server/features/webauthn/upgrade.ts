/**
 * Automatic passkey upgrades (WebAuthn conditional create). Right after a sign-in by password,
 * email or OAuth, the browser's password manager may create a passkey without a prompt, and the
 * authenticator then need not show user presence nor verification. The server accepts that only
 * where it can tell the registration follows such a sign-in: the sign-in leaves a short sealed
 * marker cookie, bound to the user and to the session's sign-in instant, with a one-time record in
 * the adapter. Registration options asked with `upgrade=1` consume it (once, across servers) and
 * mark their challenge; only that challenge's registration skips the presence and verification
 * checks. Without the marker, for another user, on an older session or a second time: refused.
 */
import type { AdapterUser, User, WebAuthnConfig } from '../../../core/types.js'
import { clearCookie, setCookie, type Context } from '../../kernel/context.js'
import { hmacHex, randomToken } from '../../kernel/crypto.js'
import { seal, unseal } from '../../kernel/jwt.js'
import { upgradeCookie } from './cookies.js'
import { storeOneTimeRecord } from '../../kernel/one-time-secrets.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { SignedIn } from '../../kernel/manage.js'
import { WebAuthnRefusal } from './errors.js'
import { AuthError } from '../../../core/errors.js'

/** How long after the sign-in the upgrade may start: the password manager acts at once or not at all. */
const markerSeconds = 5 * 60
const recordIdentifier = 'webauthn-upgrade'
const recordToken = (secret: string, nonce: string) => hmacHex(secret, `webauthn-upgrade:${nonce}`)

type Marker = {
  /** The user signed in. */
  uid: string
  /** The session's sign-in instant, in seconds (as `auth_time`). */
  at: number
  nonce: string
}

/** A provider that offers automatic upgrades, if any is configured. */
function upgrading(ctx: Context): WebAuthnConfig | undefined {
  for (const p of ctx.config.providers.values()) if (p.type === 'webauthn' && p.automaticUpgrade) return p
  return undefined
}

/**
 * After a sign-in that is not itself a passkey's (sign-in/complete.ts): leaves the marker, where a
 * WebAuthn provider offers upgrades. A sign-in that only linked a way to a held session is no new sign-in.
 */
export async function markUpgrade(ctx: Context, signIn: { user: AdapterUser | User; provider?: string; linked: boolean }): Promise<void> {
  const provider = signIn.provider ? ctx.config.providers.get(signIn.provider) : undefined
  if (signIn.linked || !signIn.user.id || provider?.type === 'webauthn' || !upgrading(ctx)) return
  const nonce = randomToken(16)
  const at = Math.floor(ctx.now / 1000)
  const expires = new Date((at + markerSeconds) * 1000)
  try {
    await storeOneTimeRecord(ctx, { identifier: recordIdentifier, token: await recordToken(ctx.config.secrets[0], nonce), expires }, 'automatic passkey upgrades')
  } catch (cause) {
    // The sign-in stands; it is only not followed by an upgrade.
    ctx.config.logger.error(new AuthError('AdapterError', 'Storing the automatic passkey upgrade marker failed; no upgrade follows this sign-in', { cause }))
    return
  }
  const marker: Marker = { uid: signIn.user.id, at, nonce }
  const sealed = await seal(marker, ctx.config.secrets, upgradeCookie.of(ctx), { now: at, expires: at + markerSeconds })
  setCookie(ctx, upgradeCookie.of(ctx), sealed, { expires })
}

/**
 * Registration options asked as an upgrade: the marker must be this user's, from this session's
 * sign-in, not expired, and unused. It is spent here, whatever follows.
 */
export async function takeUpgrade(ctx: Context, provider: WebAuthnConfig, me: SignedIn | null): Promise<void> {
  const name = upgradeCookie.of(ctx)
  const raw = ctx.cookies.get(name)
  if (raw) clearCookie(ctx, name)
  const refuse = (why: string) => new WebAuthnRefusal('upgrade', `An automatic passkey upgrade must follow a sign-in by password, email or OAuth: ${why}`, { status: 403, type: 'AccessDenied' })
  if (!provider.automaticUpgrade) throw refuse(`provider "${provider.id}" does not offer automatic upgrades`)
  if (!me) throw refuse('nobody is signed in')
  if (!raw) throw refuse('no such sign-in just happened here, or its upgrade was already asked for')
  const marker = await unseal<Marker>(raw, ctx.config.secrets, name, Math.floor(ctx.now / 1000))
  if (!marker || typeof marker.nonce !== 'string') throw refuse('the sign-in marker is expired or not ours')
  if (marker.uid !== me.user.id) throw refuse('the sign-in marker is another user’s')
  if (me.signedInAt === undefined || Math.floor(me.signedInAt / 1000) !== marker.at) throw refuse('this session is not the one that sign-in started')
  const adapter = useAdapter(ctx.config, ['useVerificationToken'], 'automatic passkey upgrades')
  let record = null
  for (const secret of ctx.config.secrets) {
    record = await adapter.useVerificationToken({ identifier: recordIdentifier, token: await recordToken(secret, marker.nonce) })
    if (record) break
  }
  if (!record || record.expires.getTime() <= ctx.now) throw refuse('its upgrade was already asked for')
}
