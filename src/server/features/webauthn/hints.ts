/**
 * The provider's `hints` (WebAuthn L3): which kind of authenticator the browser offers first. They
 * only steer the browser's dialog and are not signed, so they go into the options as given; the
 * passkey client may replace them per call.
 */
import type { WebAuthnConfig } from '../../../core/types.js'
import { configurationError } from '../../../core/errors.js'

export const hintValues = ['security-key', 'client-device', 'hybrid'] as const

export function withHints<T extends object>(options: T, provider: WebAuthnConfig): T & { hints?: string[] } {
  return provider.hints?.length ? { ...options, hints: [...provider.hints] } : options
}

/** At start-up: only the hints WebAuthn defines. */
export function checkHints(provider: WebAuthnConfig): void {
  const list = provider.hints
  if (list === undefined) return
  if (!Array.isArray(list) || list.some((h) => !(hintValues as readonly string[]).includes(h))) {
    throw configurationError(`latchkey: hints of the WebAuthn provider "${provider.id}" must be a list of ${hintValues.join(', ')}`)
  }
}
