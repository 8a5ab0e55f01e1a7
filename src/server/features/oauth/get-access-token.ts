/**
 * `auth.getAccessToken`: a provider access token for a user, or for the signed-in user of a
 * request. Only the option check runs at start-up; the refresh code (access-token.ts, with
 * oauth4webapi) loads on the first call.
 */
import type { AuthConfig } from '../../../core/types.js'
import { AccessTokenError } from './access-token-error.js'
import type { ResolvedConfig } from '../../kernel/config.js'
import { lazy } from '../../kernel/lazy.js'
import { readSession } from '../../kernel/session.js'
import { contextOf } from '../../app/get-session.js'

export interface GetAccessToken {
  /** The user's access token for `provider`, refreshed first when it expires within the skew. Throws `AccessTokenError`. */
  (account: { userId: string; provider: string }): Promise<string>
  /** The same for the request's signed-in user; throws `AccessTokenError` 'NoLinkedAccount' when nobody is signed in. */
  (request: Request, options: { provider: string }): Promise<string>
}

const refresher = lazy(() => import('./access-token.js'))

export function createGetAccessToken(resolved: ResolvedConfig, config: AuthConfig): GetAccessToken {
  const skew = config.accessTokens?.skew ?? 60
  if (!(typeof skew === 'number' && skew >= 0)) throw new TypeError(`latchkey: expected accessTokens.skew >= 0 seconds, got ${String(skew)}`)
  const options = { skew }
  return (async (first: { userId: string; provider: string } | Request, second?: { provider: string }) => {
    if (second === undefined) {
      const { userId, provider } = first as { userId: string; provider: string }
      if (typeof userId !== 'string' || !userId) throw new TypeError('latchkey: getAccessToken expected { userId, provider } or (request, { provider })')
      return (await refresher()).getAccessToken(resolved, options, userId, provider)
    }
    const ctx = contextOf(first as Request, resolved)
    const read = ctx ? await readSession(ctx, false) : null
    const userId = read?.session ? (read.user?.id ?? read.token?.sub) : undefined
    if (!userId) throw new AccessTokenError('NoLinkedAccount', 'Nobody is signed in on this request')
    return (await refresher()).getAccessToken(resolved, options, userId, second.provider)
  }) as GetAccessToken
}
