import type { WebAuthnConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import type { Context } from '../../kernel/context.js'
import { findProvider } from '../../kernel/find-provider.js'

/** The configured WebAuthn provider of this id; any other kind is `UnknownProvider` here. */
export function webauthnProvider(ctx: Context, id: string | undefined): WebAuthnConfig {
  const provider = findProvider(ctx, id)
  if (provider.type !== 'webauthn') {
    throw new AuthError('UnknownProvider', `Expected a WebAuthn provider, but "${provider.id}" is of type "${provider.type}"`, { status: 404 })
  }
  return provider
}
