/** POST /signin/:oauth-provider: builds the authorization URL. */
import type { OAuthConfig } from '../../core/types.js'
import { AuthError } from '../../core/errors.js'
import type { Context } from '../context.js'

export async function startOAuth(_ctx: Context, provider: OAuthConfig<any>): Promise<string> {
  throw new AuthError('OAuthSignInError', `OAuth sign-in for "${provider.id}" is not available in this build`, { status: 501 })
}
