/**
 * What went wrong, as the SDK reports it: no connection, a server on another origin that refused
 * this page's origin (`CrossOriginRefused`: add it to `trustedOrigins`), the same from the server's
 * own URL while the page reaches latchkey on its own origin (`OriginMismatch`: the server's
 * `origin` must be the page's URL), an answer that is not latchkey's (`NotLatchkey`: the client's
 * `basePath` is not where the server's routes answer), a server failure, or the server's error type. `SessionNotFresh` means the action needs a recent sign-in: show `<latchkey-signin confirm>`
 * and retry. `StoreUnavailable` (503) means the server's database did not answer for a moment: try
 * again after `retryAfter` seconds (the session engine keeps the session it knows meanwhile). Any
 * other server type (`?error=`) arrives as it is.
 */
export type AuthClientErrorCode =
  | 'NetworkError'
  | 'CrossOriginRefused'
  | 'OriginMismatch'
  | 'NotLatchkey'
  | 'ServerError'
  | 'SessionNotFresh'
  | 'CredentialsSignin'
  | 'AccessDenied'
  | 'MissingCSRF'
  | 'RateLimited'
  | 'StoreUnavailable'
  | 'InvalidCode'
  | 'CodeAlreadyUsed'
  | 'CodeExpired'
  | 'TooManyAttempts'
  | 'SecondFactorRequired'
  | 'SecondFactorSetupRequired'
  | 'EmailNotVerified'
  | 'PasswordTooShort'
  | 'PasswordTooLong'
  | 'PasswordBreached'
  | (string & {})

/**
 * Every failure of the SDK: `code` is 'NetworkError', 'CrossOriginRefused', 'OriginMismatch',
 * 'NotLatchkey', 'ServerError', or the server's error type
 * (`?error=`); the passkey client's `PasskeyError` is one too, with its `reason`.
 */
export class AuthClientError extends Error {
  readonly code: AuthClientErrorCode
  /** Seconds the server asked to wait before trying again (`Retry-After` of a 429 or 503), where it said. */
  readonly retryAfter?: number
  constructor(code: AuthClientErrorCode, message?: string, options?: { cause?: unknown; retryAfter?: number }) {
    super(message ?? code, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AuthClientError'
    this.code = code
    if (options?.retryAfter !== undefined) this.retryAfter = options.retryAfter
  }
}
