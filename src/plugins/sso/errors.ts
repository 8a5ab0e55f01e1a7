/** The plugin's error codes (registered: the browser sees them), each with its status. */
import { AuthError } from 'latchkey/server'

export const errorCodes = ['SsoConnectionNotFound', 'SsoConnectionInvalid', 'SsoSignInError', 'SsoRequired'] as const

/** No connection of this id in this organization, or no organization of the caller's: one answer. */
export const connectionNotFound = () => new AuthError('SsoConnectionNotFound', 'This organization has no connection of this id', { status: 404 })

/** The IdP's settings do not work: metadata that cannot be read, an issuer that does not answer. */
export const connectionInvalid = (why: string) => new AuthError('SsoConnectionInvalid', `The connection's identity provider settings do not work: ${why}`, { status: 400 })

/**
 * A sign-in through a connection refused: an assertion or ID token that fails a check, a response
 * to a request this browser did not make, a replay. The log says which; the browser only this.
 */
export const signInRefused = (why: string) => new AuthError('SsoSignInError', `The sign-in through the organization's identity provider was refused: ${why}`, { status: 403 })

/** The address's organization requires its connection: another way in is refused. */
export const ssoRequired = () => new AuthError('SsoRequired', "This address's organization requires its single sign-on: sign in through it", { status: 403 })
