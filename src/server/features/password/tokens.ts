/**
 * The one-time link and code of a password email: to confirm an address or to reset a password.
 * The link's token is stored as an HMAC under the secret (as email links are), the code as a kind
 * of the kernel's one-time-secret service (6 digits, 10 minutes, burned after 5 wrong entries); a new email replaces both,
 * and using one retires the other.
 */
import { AuthError } from '../../../core/errors.js'
import { stringField, type Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { hmacHex, randomToken } from '../../kernel/crypto.js'
import { digits, issueCode, retireCode, retireLinks, spendCode, storeOneTimeRecord, type CodeKind } from '../../kernel/one-time-secrets.js'
import { addressField } from '../../kernel/address.js'
import type { EmailLink } from './emails.js'
import { passwordStore } from './store.js'

export type Purpose = 'verify' | 'reset'

/** Keyed by purpose and address: no address has a `:` (kernel/address.ts), so no other record can take this key. */
const identifier = (purpose: Purpose, email: string) => `password-${purpose}:${email}`
/** The link's stored HMAC names its purpose too: a token made for anything else never matches. */
const hashLinkToken = (purpose: Purpose, token: string, secret: string) => hmacHex(secret, `password-${purpose}|${token}`)
/** Each purpose its own kind, so its codes are keyed `password-<purpose>:<address>` as its links are. */
const codeKinds: Record<Purpose, CodeKind> = {
  verify: { purpose: 'password-verify', length: 6, alphabet: digits, maxAge: 10 * 60, maxAttempts: 5, needFor: 'email codes', sentIn: 'the email' },
  reset: { purpose: 'password-reset', length: 6, alphabet: digits, maxAge: 10 * 60, maxAttempts: 5, needFor: 'email codes', sentIn: 'the email' },
}

/** The address in `body.email`, normalized; InvalidRequest where there is none. */
export function emailOf(body: Body): string {
  return addressField(body, 'email', 'Expected an email address like name@example.com in the "email" field')
}

/** A new link (its URL under `path`) and code for `email`; earlier ones for the same purpose stop working. */
export async function issueLink(ctx: Context, purpose: Purpose, email: string, maxAge: number): Promise<EmailLink> {
  const token = randomToken(32)
  const expires = new Date(ctx.now + maxAge * 1000)
  await storeOneTimeRecord(ctx, { identifier: identifier(purpose, email), token: await hashLinkToken(purpose, token, ctx.config.secrets[0]), expires }, 'password emails', { replace: true })
  const made = await issueCode(ctx, codeKinds[purpose], email)
  const url = new URL(`${ctx.baseUrl}/password/${purpose}`)
  url.searchParams.set('email', email)
  url.searchParams.set('token', token)
  return { url: url.href, code: made.code, maxAge, codeMaxAge: codeKinds[purpose].maxAge }
}

/** Spends the link's `token` or the `code` in the body for `email`; throws InvalidCode, CodeExpired or TooManyAttempts. */
export async function useLinkOrCode(ctx: Context, purpose: Purpose, email: string, body: Body): Promise<void> {
  const token = stringField(body, 'token')
  if (!token) {
    await spendCode(ctx, codeKinds[purpose], email, body.code)
    return retireLinks(ctx, identifier(purpose, email))
  }
  const store = passwordStore(ctx)
  for (const secret of ctx.config.secrets) {
    const record = await store.useVerificationToken({ identifier: identifier(purpose, email), token: await hashLinkToken(purpose, token, secret) })
    if (!record) continue
    if (record.expires.getTime() <= ctx.now) throw new AuthError('CodeExpired', 'This link has expired; ask for a new email', { status: 400 })
    return retireCode(ctx, codeKinds[purpose], email)
  }
  throw new AuthError('InvalidCode', 'This link or code is not right, or it was used already; ask for a new email', { status: 400 })
}
