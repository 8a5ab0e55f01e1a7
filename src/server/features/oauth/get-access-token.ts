/**
 * `auth.getAccessToken`: a provider access token for a user, or for the signed-in user of a
 * request. Only the option check runs at start-up; the rest (access-token-call.ts, and the
 * refresh code with oauth4webapi) loads on the first call.
 */
import type { AuthConfig } from '../../../core/types.js'
import type { ResolvedConfig } from '../../kernel/config.js'
import { lazy } from '../../kernel/lazy.js'

export interface GetAccessToken {
  /** The user's access token for `provider`, refreshed first when it expires within the skew. Throws `AccessTokenError`. */
  (account: { userId: string; provider: string }): Promise<string>
  /** The same for the request's signed-in user; throws `AccessTokenError` 'NoLinkedAccount' when nobody is signed in. */
  (request: Request, options: { provider: string }): Promise<string>
}

const call = lazy(() => import('./access-token-call.js'))

export function createGetAccessToken(resolved: ResolvedConfig, config: AuthConfig): GetAccessToken {
  const skew = config.accessTokens?.skew ?? 60
  if (!(typeof skew === 'number' && skew >= 0)) throw new TypeError(`latchkey: expected accessTokens.skew >= 0 seconds, got ${String(skew)}`)
  const options = { skew }
  return (async (first: { userId: string; provider: string } | Request, second?: { provider: string }) =>
    (await call()).accessTokenFor(resolved, options, first, second)) as GetAccessToken
}
