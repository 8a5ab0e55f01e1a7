/**
 * One-time codes beside email links: drawn uniformly from the provider's alphabet, stored as an
 * HMAC under the secret (a leaked table cannot be searched for six digits without it), one per
 * address (a new request replaces the old), burned after `maxAttempts` wrong entries counted in
 * the store. A code signs in on any device where the address is typed, with the CSRF token.
 */
import type { EmailCodeOptions, EmailConfig } from '../../../core/types.js'
import { AuthError, configurationError } from '../../../core/errors.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'
import type { ResolvedConfig } from '../../kernel/types.js'
import { hmacHex } from '../../kernel/crypto.js'

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

const defaults: Required<EmailCodeOptions> = { length: 6, alphabet: '0123456789', maxAge: 10 * 60, maxAttempts: 5 }

/** The provider's code options with their defaults, or null where codes are off. */
export function codeOptions(provider: EmailConfig): Required<EmailCodeOptions> | null {
  if (provider.code === false) return null
  return { ...defaults, ...(typeof provider.code === 'object' ? provider.code : {}) }
}

/** What is wrong with the provider's code options, if anything. */
export function checkCodeOptions(provider: EmailConfig): string | undefined {
  const options = codeOptions(provider)
  if (!options) return
  const { length, alphabet, maxAge, maxAttempts } = options
  const distinct = new Set(alphabet).size
  if (!Number.isInteger(length) || length < 4 || length > 32) return `code.length must be a whole number from 4 to 32, got ${length}`
  if (distinct < 2 || distinct !== [...alphabet].length) return `code.alphabet must hold at least 2 characters, each once, got "${alphabet}"`
  // A guesser gets maxAttempts tries per code: keep that below one in ten thousand.
  if (distinct ** length < maxAttempts * 10_000) return `code.length ${length} over ${distinct} characters is guessed too easily in ${maxAttempts} tries; make it longer`
  if (!(maxAge > 0)) return `code.maxAge must be a number of seconds above 0, got ${maxAge}`
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) return `code.maxAttempts must be a whole number >= 1, got ${maxAttempts}`
}

/** A new code: each character uniform over the alphabet (rejection sampling, no modulo bias). */
export function newCode({ length, alphabet }: Required<EmailCodeOptions>): string {
  const chars = [...alphabet]
  const limit = 256 - (256 % chars.length)
  let code = ''
  while (code.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && code.length < length) code += chars[byte % chars.length]
    }
  }
  return code
}

/** What a person typed, as codes are made: no spaces or dashes, and upper case where the alphabet has no lower case. */
export function normalizeCode(input: string, alphabet: string): string {
  const plain = input.replace(/[\s-]/g, '')
  return alphabet === alphabet.toUpperCase() ? plain.toUpperCase() : plain
}

const hashCode = (secret: string, identifier: string, code: string) => hmacHex(secret, `email-code|${identifier}|${code}`)

/** Stores a new code for `identifier`, replacing its earlier one, and answers it with its expiry. */
export async function storeCode(ctx: Context, provider: EmailConfig, identifier: string): Promise<{ code: string; codeExpires: Date } | undefined> {
  const options = codeOptions(provider)
  if (!options) return
  const adapter = useAdapter(ctx.config, ['createVerificationCode'], 'email codes')
  const code = newCode(options)
  const codeExpires = new Date(ctx.now + options.maxAge * 1000)
  await adapter.createVerificationCode({ identifier, code: await hashCode(ctx.config.secrets[0], identifier, code), expires: codeExpires })
  return { code, codeExpires }
}

/** One attempt at `identifier`'s code; returns when it is right, else throws InvalidCode, CodeExpired or TooManyAttempts. */
export async function useCode(ctx: Context, provider: EmailConfig, identifier: string, input: unknown): Promise<void> {
  const options = codeOptions(provider)
  if (!options) throw new AuthError('InvalidRequest', `Provider "${provider.id}" sends no codes (its code option is false)`)
  if (typeof input !== 'string' || !input.trim()) throw new AuthError('InvalidCode', 'Expected the code from the email in the "code" field', { status: 400 })
  const code = normalizeCode(input, options.alphabet)
  const adapter = useAdapter(ctx.config, ['useVerificationCode'], 'email codes')
  // Every secret in rotation, so a code sent before a rotation still works.
  const codes = await Promise.all(ctx.config.secrets.map((secret) => hashCode(secret, identifier, code)))
  const found = await adapter.useVerificationCode({ identifier, codes, maxAttempts: options.maxAttempts })
  if (found.result === 'used') {
    if (found.expires.getTime() <= ctx.now) throw new AuthError('CodeExpired', 'The code has expired; ask for a new one', { status: 400 })
    return
  }
  if (found.result === 'exhausted' || (found.result === 'wrong' && found.attemptsLeft === 0)) {
    throw new AuthError('TooManyAttempts', 'Too many wrong codes: this one no longer works; ask for a new one', { status: 400 })
  }
  throw new AuthError('InvalidCode', 'The code is not right, or there is no code for this address', { status: 400 })
}
