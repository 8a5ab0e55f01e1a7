/**
 * Every failure of the passkey client, as one typed error. It is an `AuthClientError`: its `code`
 * is the server's error code where the server refused (`SessionNotFresh`, `WebAuthnVerificationError`,
 * ...: the same code as from every other call), `NetworkError`, `NotLatchkey` or `ServerError` as for
 * the rest of the SDK, or a `Passkey…` code for what the browser refused. `reason` says what happened in the
 * passkey client's words: the server's (its `Latchkey-WebAuthn-Error` header) or the browser's.
 * Browser errors (`@simplewebauthn/browser`'s `WebAuthnError` and plain DOMExceptions) and server
 * refusals both end up here.
 */
import { WebAuthnError } from '@simplewebauthn/browser'
import { AuthClientError } from '../errors.js'

/** What happened, as the client tells it apart. */
export type PasskeyErrorKind =
  /** No WebAuthn in this browser, or no autofill (conditional UI) where it was asked for. */
  | 'unsupported'
  /** This ceremony was aborted because another one started, or `cancel()` was called. */
  | 'cancelled'
  /** The browser or the user did not allow it: the dialog was dismissed, timed out, or no passkey was available. */
  | 'not-allowed'
  /** The server knows no passkey matching the one used (removed, or registered elsewhere). */
  | 'no-credential'
  /** This authenticator already holds a passkey for the account. */
  | 'already-registered'
  /** The page's origin does not match the relying party (RP ID), so the browser refused. */
  | 'security'
  /** The server refused; `reason` says why (e.g. 'verification', 'counter', 'challenge', 'last-credential', 'not-fresh'). */
  | 'refused'
  | 'network'
  /** A server on another origin answered but refused this page's origin (CORS). */
  | 'cross-origin'
  /** What answered is not latchkey (a body that is not JSON, a 404 naming no error): a `basePath` that is not the server's. */
  | 'not-latchkey'
  | 'server'
  /** Anything else the browser raised; `cause` has it. */
  | 'failed'

/** The codes of failures that are not the server's answer. */
export type PasskeyErrorCode =
  | 'PasskeyUnsupported'
  | 'PasskeyCancelled'
  | 'PasskeyNotAllowed'
  | 'PasskeyAlreadyRegistered'
  | 'PasskeySecurityError'
  | 'PasskeyFailed'
  | 'NetworkError'
  | 'CrossOriginRefused'
  | 'NotLatchkey'
  | 'ServerError'

const clientCodes: Record<PasskeyErrorKind, PasskeyErrorCode> = {
  unsupported: 'PasskeyUnsupported',
  cancelled: 'PasskeyCancelled',
  'not-allowed': 'PasskeyNotAllowed',
  'already-registered': 'PasskeyAlreadyRegistered',
  security: 'PasskeySecurityError',
  failed: 'PasskeyFailed',
  network: 'NetworkError',
  'cross-origin': 'CrossOriginRefused',
  'not-latchkey': 'NotLatchkey',
  server: 'ServerError',
  // Only with the server's code (below); alone, the server gave none.
  refused: 'ServerError',
  'no-credential': 'ServerError',
}

export class PasskeyError extends AuthClientError {
  /** What happened: the server's reason where it refused, else the browser's (`cancelled`, `not-allowed`, ...). */
  readonly reason?: string
  /** The server's error code (`?error=`), when the server answered a refusal; then `code` is the same. */
  readonly serverError?: string
  /** The server refused (a 4xx with its code), as opposed to the browser, the network or a server failure. */
  readonly refused: boolean
  constructor(kind: PasskeyErrorKind, message: string, details: { reason?: string; serverError?: string; cause?: unknown } = {}) {
    const refused = details.serverError !== undefined && (kind === 'refused' || kind === 'no-credential' || kind === 'already-registered')
    super(refused ? details.serverError! : clientCodes[kind], message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'PasskeyError'
    this.refused = refused
    this.reason = details.reason ?? (refused ? undefined : kind)
    this.serverError = details.serverError
  }
}

const messages: Record<PasskeyErrorKind, string> = {
  unsupported: 'This browser does not support passkeys here',
  cancelled: 'The passkey request was cancelled because another one started',
  'not-allowed': 'The passkey request was dismissed, timed out, or not allowed',
  'no-credential': 'This passkey is not registered here (it may have been removed); choose another or sign in another way',
  'already-registered': 'This device already has a passkey for this account',
  security: 'This page is not allowed to use passkeys for this site (origin or RP ID mismatch)',
  refused: 'The server refused the passkey',
  network: 'Could not reach the server',
  'cross-origin': "The server refused this page's origin: add it to the server's trustedOrigins",
  'not-latchkey': "No latchkey server answers there: check that the client's basePath matches the server's",
  server: 'The server failed',
  failed: 'The passkey request failed',
}

/** Maps what `startRegistration` / `startAuthentication` threw. */
export function fromBrowserError(error: unknown): PasskeyError {
  if (error instanceof PasskeyError) return error
  const e = error as { name?: string; message?: string; code?: string; cause?: { name?: string } }
  const name = error instanceof WebAuthnError ? (e.cause?.name ?? e.name) : e?.name
  const code = error instanceof WebAuthnError ? e.code : undefined
  const message = e?.message ?? String(error)
  let mapped: PasskeyErrorKind = 'failed'
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError') mapped = 'cancelled'
  else if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') mapped = 'already-registered'
  else if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID' || name === 'SecurityError') mapped = 'security'
  else if (name === 'NotAllowedError') mapped = 'not-allowed'
  else if (
    name === 'NotSupportedError' ||
    code === 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT' ||
    code === 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT' ||
    code === 'ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG' ||
    /not support/i.test(message)
  ) {
    mapped = 'unsupported'
  }
  return new PasskeyError(mapped, `${messages[mapped]}${mapped === 'failed' || mapped === 'unsupported' ? `: ${message}` : ''}`, { cause: error })
}

/** Maps a server answer that is not a success. */
export function fromServer(status: number, body: { error?: string; message?: string } | null, reason: string | null): PasskeyError {
  const details = { reason: reason ?? undefined, serverError: body?.error }
  if (status === 404 && !body?.error) return new PasskeyError('not-latchkey', `${messages['not-latchkey']} (${status})`, details)
  if (status >= 500 || !body?.error) return new PasskeyError('server', body?.message ?? `${messages.server} (${status})`, details)
  if (reason === 'unknown-credential') return new PasskeyError('no-credential', body.message ?? messages['no-credential'], details)
  if (reason === 'already-registered') return new PasskeyError('already-registered', body.message ?? messages['already-registered'], details)
  return new PasskeyError('refused', body.message ?? (reason && reasons[reason]) ?? `${messages.refused} (${body.error})`, details)
}

/** Failed callbacks answer only `{ url, error }`; the reason header still says what happened. */
const reasons: Record<string, string> = {
  challenge: 'The passkey request expired or was already used; try again',
  verification: 'The passkey response did not verify for this site',
  counter: "The passkey's signature counter went backwards: the authenticator may have been cloned",
  'other-account': 'You are signed in: a passkey can only be added to your own account',
  'signed-out': 'Sign in first',
  'not-fresh': 'Confirm it is you: sign in again, then add the passkey',
  'last-credential': 'This is your last passkey; add another way to sign in first',
  upgrade: 'An automatic passkey upgrade needs a sign-in just now, and only once',
  invalid: 'The passkey request was malformed',
}

/**
 * The server answers a registration for an address that has an account as one that did not verify,
 * so the options do not tell who has an account; the message covers both.
 */
export function registrationRefused(error: PasskeyError): PasskeyError {
  if (!error.refused || error.reason !== 'verification') return error
  const message = 'The passkey could not be registered. If this email address already belongs to an account, sign in to it first, then add a passkey'
  return new PasskeyError('refused', message, { reason: error.reason, serverError: error.serverError })
}

export function unsupported(detail: string): PasskeyError {
  return new PasskeyError('unsupported', `${messages.unsupported}: ${detail}`)
}

export function cancelled(): PasskeyError {
  return new PasskeyError('cancelled', messages.cancelled)
}
