/** GET or POST /callback/:oauth-provider. */
import type { OAuthConfig } from '../../core/types.js'
import { AuthError } from '../../core/errors.js'
import type { Body } from '../body.js'
import type { Context } from '../context.js'

export async function handleOAuthCallback(_ctx: Context, provider: OAuthConfig<any>, _body: Body): Promise<void> {
  throw new AuthError('OAuthCallbackError', `OAuth sign-in for "${provider.id}" is not available in this build`, { status: 501 })
}
