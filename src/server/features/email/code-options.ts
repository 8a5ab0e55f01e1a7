/** An email provider's code options, checked at start-up (apart from code.ts, which loads on first use). */
import type { EmailCodeOptions, EmailConfig } from '../../../core/types.js'
import { configurationError } from '../../../core/errors.js'
import type { ResolvedConfig } from '../../kernel/types.js'
import { checkCodeKind, digits } from '../../kernel/code-kinds.js'

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
