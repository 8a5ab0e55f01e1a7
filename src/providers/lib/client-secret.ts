import type { OAuthConfig } from '../../core/types.js'

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

/**
 * The client authentication decides: `none` and `private_key_jwt` need no secret, the
 * `client_secret_*` methods do; left unset, a built-in provider for a service without public
 * clients needs one, and a generic or hand-written provider is a public client without one.
 */
export function secretNeeded(provider: OAuthConfig<any>): boolean {
  const method = provider.client?.token_endpoint_auth_method
  if (typeof method === 'string') return method.startsWith('client_secret_')
  return (provider as { [needsClientSecret]?: boolean })[needsClientSecret] === true
}
