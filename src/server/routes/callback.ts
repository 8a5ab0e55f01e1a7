/** GET or POST /callback/:provider: the provider's sign-in method finishes the sign-in and sends the browser on. */
import { AuthError } from '../../core/errors.js'
import { readRedirectingBody } from '../kernel/body.js'
import type { Context } from '../kernel/context.js'
import { methodOf } from '../kernel/plugin.js'
import { findProvider } from '../kernel/find-provider.js'
import { noteCallbackUrl } from '../kernel/redirect-url.js'
import type { Reply } from '../kernel/respond.js'

export async function callback(ctx: Context, providerId: string | undefined): Promise<Reply> {
  const body = await readRedirectingBody(ctx)
  const asked = body.callbackUrl ?? ctx.url.searchParams.get('callbackUrl')
  noteCallbackUrl(ctx, asked)
  const provider = findProvider(ctx, providerId)
  const method = methodOf(ctx.config, provider)
  if (!method) throw new AuthError('UnknownAction', `Provider "${provider.id}" has no callback here`, { status: 400 })
  return method.callback(ctx, provider, body)
}
