import { AuthError } from '../core/errors.js'
import type { ResolvedProvider } from './config.js'
import type { Context } from './context.js'

/** The configured provider of this id, or `UnknownProvider`. */
export function findProvider(ctx: Context, id: string | undefined): ResolvedProvider {
  const provider = id ? ctx.config.providers.get(id) : undefined
  if (!provider) throw new AuthError('UnknownProvider', id ? `No provider has the id "${id}"` : 'Expected a provider id in the path', { status: 404 })
  return provider
}
