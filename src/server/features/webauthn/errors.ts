/**
 * Refusals of the WebAuthn routes. They are `AuthError`s (so the handler answers and logs them as
 * usual) with a machine-readable `reason`, which also travels in the `Latchkey-WebAuthn-Error`
 * response header: the callback route answers failures as `{ url, error }` only, and the passkey
 * client needs to tell "unknown credential" from "counter went backwards".
 */
import { AuthError, type ErrorType } from '../../../core/errors.js'
import type { Context } from '../../kernel/context.js'

export const reasonHeader = 'latchkey-webauthn-error'

export type WebAuthnReason =
  /** The options cookie is missing, expired, for another provider or action, or was already used. */
  | 'challenge'
  /**
   * The browser's response did not verify (signature, origin, RP ID, challenge, flags); also a signed-out
   * registration for an address that has an account, so that answer does not tell it has one.
   */
  | 'verification'
  /** No stored authenticator has the credential id the browser answered with. */
  | 'unknown-credential'
  /** The signature counter did not move forward: the authenticator may have been cloned. */
  | 'counter'
  /** The credential is already registered. */
  | 'already-registered'
  /** Signed in, registration named another address than the own account's (taken or not). */
  | 'other-account'
  /** The route needs a signed-in user. */
  | 'signed-out'
  /** The action needs a recent sign-in (`session.freshAge`); sign in again and retry. */
  | 'not-fresh'
  /** Removing this passkey would leave the account without a way to sign in. */
  | 'last-credential'
  /** An automatic passkey upgrade without the sign-in it must follow (none, another user's, stale, or already used). */
  | 'upgrade'
  /** Malformed input. */
  | 'invalid'

export class WebAuthnRefusal extends AuthError {
  readonly reason: WebAuthnReason
  constructor(reason: WebAuthnReason, message: string, options?: { cause?: unknown; status?: number; type?: ErrorType }) {
    super(options?.type ?? 'WebAuthnVerificationError', message, { cause: options?.cause, status: options?.status ?? 400 })
    this.reason = reason
  }
}

/** The reasons of the shared guards' errors (a 401 AccessDenied is 'signed-out'). */
const sharedReasons: Partial<Record<ErrorType, WebAuthnReason>> = { SessionNotFresh: 'not-fresh', InvalidRequest: 'invalid' }

/** Runs a route, putting a refusal's reason into the response header before the handler answers. */
export async function withReason<T>(ctx: Context, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof WebAuthnRefusal) ctx.headers[reasonHeader] = error.reason
    // The shared guards (kernel/fresh.ts, kernel/manage.ts) throw plain AuthErrors; the passkey client reads a reason here too.
    else if (error instanceof AuthError) {
      const reason = error.type === 'AccessDenied' ? (error.status === 401 ? 'signed-out' : undefined) : sharedReasons[error.type as ErrorType]
      if (reason) ctx.headers[reasonHeader] = reason
    }
    throw error
  }
}
