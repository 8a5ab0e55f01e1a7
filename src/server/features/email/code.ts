/**
 * One-time codes beside email links, a code kind of the kernel's one-time-secret service
 * (kernel/one-time-secrets.ts): drawn uniformly from the provider's alphabet, stored as an HMAC
 * under the secret, one per address (a new request replaces the old), burned after `maxAttempts`
 * wrong entries counted in the store. A code signs in on any device where the address is typed,
 * with the CSRF token.
 */
import type { EmailCodeOptions, EmailConfig } from '../../../core/types.js'
import { AuthError, configurationError } from '../../../core/errors.js'
import type { Context } from '../../kernel/context.js'
import type { ResolvedConfig } from '../../kernel/types.js'
import { checkCodeKind, digits, issueCode, spendCode, type CodeKind } from '../../kernel/one-time-secrets.js'

const codeMethods = ['createVerificationCode', 'useVerificationCode'] as const

/**
 * At start-up: each email provider's code options can make codes, and the adapter can keep them.
 * An Auth.js adapter has no code methods; it is told so here, not at the first sign-in.
 */
export function checkEmailCodes(resolved: ResolvedConfig): void {
  for (const provider of resolved.providers.values()) {
    if (provider.type !== 'email') continue
    const problem = checkCodeOptions(provider as EmailConfig)
    if (problem) throw configurationError(`latchkey: email provider "${provider.id}": ${problem}`)
    const adapter = resolved.adapter as Record<string, unknown> | undefined
    const missing = codeOptions(provider as EmailConfig) && adapter ? codeMethods.filter((m) => typeof adapter[m] !== 'function') : []
    if (missing.length) {
      throw configurationError(
        `latchkey: email provider "${provider.id}" sends one-time codes, which need the adapter methods ${missing.join(' and ')}; ` +
          `this adapter lacks them (Auth.js's adapters do). Set code: false on the provider to send links only, or add the methods (docs/data.md).`,
      )
    }
  }
}

const defaults: Required<EmailCodeOptions> = { length: 6, alphabet: digits, maxAge: 10 * 60, maxAttempts: 5 }

/** The provider's code options with their defaults, or null where codes are off. */
export function codeOptions(provider: EmailConfig): Required<EmailCodeOptions> | null {
  if (provider.code === false) return null
  return { ...defaults, ...(typeof provider.code === 'object' ? provider.code : {}) }
}

/** What is wrong with the provider's code options, if anything. */
export function checkCodeOptions(provider: EmailConfig): string | undefined {
  const options = codeOptions(provider)
  const problem = options && checkCodeKind(options)
  return problem ? `code.${problem}` : undefined
}

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
}
