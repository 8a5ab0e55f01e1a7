/** An email provider's code options, checked at start-up (apart from code.ts, which loads on first use). */
import type { EmailCodeOptions, EmailConfig } from '../../../core/types.js'
import { configurationError } from '../../../core/errors.js'
import type { ResolvedConfig } from '../../kernel/types.js'
import { checkCodeKind, digits } from '../../kernel/code-kinds.js'

/** At start-up: each email provider's code options can make codes (an adapter without code methods keeps them in its tokens: kernel/codes-in-tokens.ts). */
export function checkEmailCodes(resolved: ResolvedConfig): void {
  for (const provider of resolved.providers.values()) {
    if (provider.type !== 'email') continue
    const problem = checkCodeOptions(provider as EmailConfig)
    if (problem) throw configurationError(`latchkey: email provider "${provider.id}": ${problem}`)
  }
}

/** Whether any email provider sends codes beside its links. */
export function sendsCodes(resolved: ResolvedConfig): boolean {
  return [...resolved.providers.values()].some((p) => p.type === 'email' && codeOptions(p as EmailConfig) !== null)
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
