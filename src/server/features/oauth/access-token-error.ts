/** `getAccessToken`'s error, apart from the refresh code, so latchkey/server exports the class without loading oauth4webapi. */
import { AuthError } from '../../../core/errors.js'

export type AccessTokenErrorCode =
  /** The user has no account with this provider (or nobody is signed in on the request). */
  | 'NoLinkedAccount'
  /** The token expired and the account has no refresh token (the provider gave none). */
  | 'NoRefreshToken'
  /** The provider refused the refresh token (`invalid_grant`): the user must sign in with it again. The session says the same (`session.error`). */
  | 'RefreshAccessTokenError'
  /** The provider could not be reached, timed out or answered an error other than a refusal. */
  | 'ProviderUnreachable'

/** `getAccessToken`'s failures: an `AuthError` whose `code` says which. */
export class AccessTokenError extends AuthError {
  declare readonly code: AccessTokenErrorCode
  constructor(code: AccessTokenErrorCode, message: string) {
    super(code, message, { status: 500 })
    this.name = 'AccessTokenError'
  }
}
