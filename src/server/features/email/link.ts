/**
 * Email sign-in. The plain token goes only into the emailed link; the store keeps
 * HMAC-SHA-256(secret, token) as hex, so a leaked table signs nobody in.
 */
import type { EmailConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import { isAddress, normalizeEmail } from '../../kernel/address.js'
import type { Context } from '../../kernel/context.js'
import { pageWords } from '../../kernel/page-language.js'
import { hmacHex, randomToken } from '../../kernel/crypto.js'
import { storeOneTimeRecord } from '../../kernel/one-time-secrets.js'
import { requestTheme } from '../../kernel/theme.js'
import { completeSignIn, type SignInResult } from '../../sign-in/complete.js'
import { signInMessage } from '../../../providers/lib/email.js'
import { retireEmailCode, storeCode } from './code.js'
import { noteRequester } from './requester.js'

const defaultMaxAge = 24 * 60 * 60

/** The provider's `normalizeIdentifier`, its answer checked as an address (it keys the stored records); else `normalizeEmail`. */
function normalizeWith(provider: EmailConfig, raw: string): string {
  if (!provider.normalizeIdentifier) return normalizeEmail(raw)
  let value: unknown
  try {
    value = provider.normalizeIdentifier(raw)
  } catch (cause) {
    throw new AuthError('EmailSignin', 'Expected an email address like name@example.com (normalizeIdentifier refused this one)', { cause })
  }
  if (typeof value !== 'string' || !isAddress(value)) {
    throw new AuthError('EmailSignin', 'Expected an email address like name@example.com (normalizeIdentifier must answer one: no spaces, and none of , ; : < > " ( ) [ ] \\)')
  }
  return value
}

export function hashToken(token: string, secret: string): Promise<string> {
  return hmacHex(secret, token)
}

/** The address a sign-in link would go to: the provider's `normalizeIdentifier`, else `normalizeEmail`. */
export function emailIdentifier(provider: EmailConfig, rawEmail: string | undefined): string {
  if (!rawEmail) throw new AuthError('EmailSignin', 'Expected an email address in the "email" field')
  return normalizeWith(provider, rawEmail)
}

/** POST /signin/:email: stores the hashed token and sends the link to `identifier` (from `emailIdentifier`). */
export async function sendEmailLink(ctx: Context, provider: EmailConfig, identifier: string, callbackUrl: string): Promise<string> {
  useAdapter(ctx.config, ['createVerificationToken'], 'email sign-in') // a missing method fails before the signIn callback runs
  const allowed = ctx.config.callbacks.signIn
    ? await ctx.config.callbacks.signIn({ user: { email: identifier }, account: null, email: { verificationRequest: true } })
    : true
  if (allowed !== true) throw new AuthError('AccessDenied', 'The signIn callback refused this email address', { status: 403 })

  const token = (await provider.generateVerificationToken?.()) ?? randomToken(32)
  const expires = new Date(ctx.now + (provider.maxAge ?? defaultMaxAge) * 1000)
  await storeOneTimeRecord(ctx, { identifier, token: await hashToken(token, ctx.config.secrets[0]), expires }, 'email sign-in')
  await noteRequester(ctx, identifier, token, expires)
  const code = await storeCode(ctx, provider, identifier)
  const params = new URLSearchParams({ callbackUrl, token, email: identifier })
  const url = `${ctx.baseUrl}/callback/${encodeURIComponent(provider.id)}?${params}`
  try {
    const theme = requestTheme(ctx)
    const message = signInMessage({ url, expires, ...code, theme, now: ctx.now }, pageWords(ctx))
    await provider.sendVerificationRequest({ identifier, url, expires, provider, token, theme, request: ctx.request, ...code, message })
  } catch (cause) {
    throw new AuthError('EmailSignin', `Sending the sign-in email through "${provider.id}" failed`, { cause, status: 502 })
  }
  return identifier
}

/** What a sign-in link carries (from its query, or from its page's form). */
export interface EmailLink {
  identifier: string
  token: string
}

/** The link's address and token, or `Verification` when it is not one. */
export function readEmailLink(provider: EmailConfig, token: unknown, rawEmail: unknown): EmailLink {
  if (typeof token !== 'string' || !token || typeof rawEmail !== 'string' || !rawEmail) {
    throw new AuthError('Verification', 'Expected "token" and "email" in the sign-in link')
  }
  try {
    return { identifier: normalizeWith(provider, rawEmail), token }
  } catch {
    throw new AuthError('Verification', 'The sign-in link carries an invalid email address')
  }
}

/** Uses the link: a matching, unexpired, unused token signs in; anything else is `Verification`. */
export async function useEmailLink(ctx: Context, provider: EmailConfig, { identifier, token }: EmailLink): Promise<SignInResult> {
  const adapter = useAdapter(ctx.config, ['useVerificationToken'], 'email sign-in')
  let record = null
  // Every secret in rotation is tried, so links sent before a rotation still work.
  for (const secret of ctx.config.secrets) {
    record = await adapter.useVerificationToken({ identifier, token: await hashToken(token, secret) })
    if (record) break
  }
  if (!record) throw new AuthError('Verification', 'The sign-in link is invalid or has already been used')
  if (record.expires.getTime() <= ctx.now) throw new AuthError('Verification', 'The sign-in link has expired')
  await retireEmailCode(ctx, provider, identifier)
  return completeEmailSignIn(ctx, provider, identifier)
}

/** The one completion step, for a proven address (by its link or its code). */
export async function completeEmailSignIn(ctx: Context, provider: EmailConfig, identifier: string): Promise<SignInResult> {
  return completeSignIn(ctx, {
    user: { email: identifier },
    account: { type: 'email', provider: provider.id, providerAccountId: identifier, userId: '' },
    emailVerified: true,
    amr: ['email'],
  })
}
