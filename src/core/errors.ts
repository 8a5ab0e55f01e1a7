/**
 * Errors of the sign-in service. `type` is what the browser may see (as `?error=`) when the
 * type is client-safe; any other type reads `Configuration` to the browser and is logged in full.
 */
/** An adapter's broken rule (src/adapters/errors.ts): logged by the server, never shown to the browser. */
export type AdapterErrorCode =
  | 'DuplicateEmail'
  | 'DuplicateUser'
  | 'DuplicateAccount'
  | 'DuplicateSession'
  | 'DuplicateVerificationToken'
  | 'DuplicateAuthenticator'
  | 'DuplicateFactor'
  | 'UnknownUser'
  | 'UnknownAuthenticator'
  | 'InvalidInput'
  | 'MigrationFailed'
  | 'UnsupportedDatabase'
  | 'ConnectionFailed'
  | 'DatabaseLocked'

export type ErrorType =
  | 'AccessDenied'
  | 'AdapterError'
  | AdapterErrorCode
  | 'CallbackRouteError'
  | 'CodeAlreadyUsed'
  | 'CodeExpired'
  | 'Configuration'
  | 'CredentialsSignin'
  | 'EmailNotVerified'
  | 'EmailSignin'
  | 'InvalidCheck'
  | 'InvalidCode'
  | 'InvalidRequest'
  | 'LastSignInMethod'
  | 'MissingAdapterMethods'
  | 'MissingCSRF'
  | 'MissingSecret'
  | 'NoLinkedAccount'
  | 'NoRefreshToken'
  | 'NotSupported'
  | 'OAuthAccountNotLinked'
  | 'OAuthCallbackError'
  | 'OAuthSignInError'
  | 'PasswordBreached'
  | 'PasswordTooLong'
  | 'PasswordTooShort'
  | 'PayloadTooLarge'
  | 'ProviderUnreachable'
  | 'RateLimited'
  | 'RefreshAccessTokenError'
  | 'SecondFactorRequired'
  | 'SecondFactorSetupRequired'
  | 'SessionNotFresh'
  | 'StoreUnavailable'
  | 'TooManyAttempts'
  | 'UnknownAction'
  | 'UnknownProvider'
  | 'UntrustedHost'
  | 'Verification'
  | 'WeakSecret'
  | 'WebAuthnVerificationError'

/**
 * A code a plugin registers (`LatchkeyPlugin.errorCodes` in latchkey/server), PascalCase as the
 * built-in ones; an unregistered one reaches the browser as `Configuration`.
 */
export type PluginErrorCode = string & {}

/**
 * Types whose name alone tells the browser nothing it should not know, shared by every way in; a
 * plugin registers its own (`LatchkeyPlugin.errorCodes`: OAuth's, email links', passwords', passkeys', second factors').
 */
const clientSafe = new Set<ErrorType>([
  'AccessDenied',
  'CodeExpired',
  'CredentialsSignin',
  'EmailSignin',
  'InvalidCode',
  'InvalidRequest',
  'MissingCSRF',
  'NotSupported',
  'OAuthAccountNotLinked',
  'OAuthCallbackError',
  'PayloadTooLarge',
  'RateLimited',
  'SessionNotFresh',
  'StoreUnavailable',
  'TooManyAttempts',
  'UnknownAction',
  'UnknownProvider',
  'UntrustedHost',
])

/**
 * Every failure of the server: `code` (PascalCase, as Auth.js's error types; also `type`, the name
 * Auth.js gives it) is what docs/errors.md lists and what the browser sees as `AuthClientError.code`.
 */
export class AuthError extends Error {
  readonly type: ErrorType | PluginErrorCode
  /** The same as `type`: the one name of the condition, on the server and in the browser. */
  readonly code: ErrorType | PluginErrorCode
  /** HTTP status when the error is answered directly rather than by redirect. */
  readonly status: number
  /** Seconds the client should wait before it tries again, answered as `Retry-After` (429, 503). */
  readonly retryAfter?: number
  constructor(type: ErrorType | PluginErrorCode, message: string, options?: { cause?: unknown; status?: number; retryAfter?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = type
    this.type = type
    this.code = type
    this.status = options?.status ?? 400
    if (options?.retryAfter !== undefined) this.retryAfter = options.retryAfter
  }
}

/**
 * How long a client waits after `StoreUnavailable` (the database or the rate-limit store did not
 * answer): a PostgreSQL restart or a failover takes a few seconds.
 */
export const storeRetryAfterSeconds = 3

/** A configuration `Latchkey(config)` cannot run with: thrown at start-up, with a message that says the fix. */
export function configurationError(message: string): AuthError {
  return new AuthError('Configuration', message, { status: 500 })
}

/** The error type the browser may be told. */
export function clientErrorType(error: unknown, registered?: ReadonlySet<string>): ErrorType | PluginErrorCode {
  if (!(error instanceof AuthError)) return 'Configuration'
  return clientSafe.has(error.type as ErrorType) || registered?.has(error.type) ? error.type : 'Configuration'
}

/** An adapter lacks methods the configuration needs. */
export class MissingAdapterMethods extends AuthError {
  readonly methods: string[]
  constructor(methods: string[], needFor: string) {
    super('MissingAdapterMethods', `The adapter lacks ${methods.join(', ')}, needed for ${needFor}.`, { status: 500 })
    this.methods = methods
  }
}
