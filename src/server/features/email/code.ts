/**
 * One-time codes beside email links, a code kind of the kernel's one-time-secret service
 * (kernel/one-time-secrets.ts): drawn uniformly from the provider's alphabet, stored as an HMAC
 * under the secret, one per address (a new request replaces the old), burned after `maxAttempts`
 * wrong entries counted in the store. A code signs in on any device where the address is typed,
 * with the CSRF token.
 */
import type { EmailConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import type { Context } from '../../kernel/context.js'
import { issueCode, retireCode, retireLinks, spendCode, type CodeKind } from '../../kernel/one-time-secrets.js'
import { codeOptions } from './code-options.js'

/** The provider's codes as a kind: keyed by the address alone (which never holds a `:`), as its links are. */
function codeKind(provider: EmailConfig): CodeKind | null {
  const options = codeOptions(provider)
  if (!options) return null
  const { length, alphabet, maxAge, maxAttempts } = options
  return { purpose: 'email', bare: true, length, alphabet, maxAge, maxAttempts, needFor: 'email codes', sentIn: 'the email' }
}

/** Stores a new code for `identifier`, replacing its earlier one, and answers it with its expiry. */
export async function storeCode(ctx: Context, provider: EmailConfig, identifier: string): Promise<{ code: string; codeExpires: Date } | undefined> {
  const kind = codeKind(provider)
  if (!kind) return
  const { code, expires } = await issueCode(ctx, kind, identifier)
  return { code, codeExpires: expires }
}

/** One attempt at `identifier`'s code; returns when it is right, else throws InvalidCode, CodeExpired or TooManyAttempts. */
export async function useCode(ctx: Context, provider: EmailConfig, identifier: string, input: unknown): Promise<void> {
  const kind = codeKind(provider)
  if (!kind) throw new AuthError('InvalidRequest', `Provider "${provider.id}" sends no codes (its code option is false)`)
  await spendCode(ctx, kind, identifier, input)
  await retireLinks(ctx, identifier)
}

/** After the link signed in: its code stops working too. */
export async function retireEmailCode(ctx: Context, provider: EmailConfig, identifier: string): Promise<void> {
  const kind = codeKind(provider)
  if (kind) await retireCode(ctx, kind, identifier)
}
