/**
 * Marks a built-in provider whose service issues only confidential clients, so that
 * `Latchkey(config)` refuses to start when it has no clientSecret
 * (src/server/features/oauth/required-fields.ts) rather than failing at the first sign-in. A
 * symbol, so no option can set it by mistake; `Symbol.for`, so two copies of latchkey agree.
 */
export const needsClientSecret = Symbol.for('latchkey.needsClientSecret')

/** The provider without the mark: a public client (PKCE alone) may use it, with no clientSecret. */
export function secretOptional<C extends object>(provider: C): C {
  delete (provider as Record<symbol, unknown>)[needsClientSecret]
  return provider
}
