import { AuthError } from '../../core/errors.js'
import type { ResolvedProvider } from './config.js'
import type { Context } from './context.js'

/** The configured provider of this id, or `UnknownProvider`; the message does not repeat the id, which is request text. */
export function findProvider(ctx: Context, id: string | undefined): ResolvedProvider {
  const provider = id ? ctx.config.providers.get(id) : undefined
  if (!provider) {
    const expected = `Expected the id of a configured provider in the path (GET ${ctx.config.basePath}/providers lists them)`
    throw new AuthError('UnknownProvider', id ? `${expected}; no provider has the one given` : expected, { status: 404 })
  }
  return provider
}
