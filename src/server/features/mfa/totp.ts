/**
 * Authenticator apps (RFC 6238, through otpauth): SHA-1, 6 digits, 30 s steps, one step of clock
 * skew each way. The secret is sealed with the configuration's secret before it is stored, and
 * opened with any secret in rotation; a code is accepted once per step (the adapter's
 * compare-and-set on the factor's last used step), so a code seen over a shoulder cannot be replayed.
 */
import { Secret, TOTP } from 'otpauth'
import { renderSVG } from 'uqr'
import type { AdapterFactor } from '../../../core/types.js'
import type { Context } from '../../kernel/context.js'
import { seal, unseal } from '../../kernel/jwt.js'

const period = 30
const salt = 'latchkey.totp-secret'
/** Sealed secrets outlive any session: a century. */
const forever = 100 * 365 * 24 * 3600

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32
}

export function sealSecret(ctx: Context, base32: string): Promise<string> {
  const now = Math.floor(ctx.now / 1000)
  return seal({ s: base32 }, ctx.config.secrets, salt, { now, expires: now + forever })
}

async function openSecret(ctx: Context, factor: AdapterFactor): Promise<string | undefined> {
  const opened = await unseal<{ s?: unknown }>(factor.secret, ctx.config.secrets, salt, Math.floor(ctx.now / 1000))
  return typeof opened?.s === 'string' ? opened.s : undefined
}

/** The `otpauth://` URI an app scans, and it as a QR code (SVG). */
export function enrolment(base32: string, issuer: string, account: string): { uri: string; qr: string } {
  const uri = new TOTP({ issuer, label: account, secret: Secret.fromBase32(base32), period }).toString()
  return { uri, qr: renderSVG(uri, { border: 2 }) }
}

/** The time step `code` is right for (now, or one step either side), or null. */
export async function totpStep(ctx: Context, factor: AdapterFactor, code: string): Promise<number | null> {
  const base32 = await openSecret(ctx, factor)
  const token = code.replace(/\s/g, '')
  if (!base32 || !/^\d{6}$/.test(token)) return null
  const delta = TOTP.validate({ token, secret: Secret.fromBase32(base32), period, timestamp: ctx.now, window: 1 })
  return delta === null ? null : TOTP.counter({ period, timestamp: ctx.now }) + delta
}
