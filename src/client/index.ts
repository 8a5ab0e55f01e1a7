/** latchkey: the browser SDK. */
export { createAuthClient, type AuthClient, type AuthClientOptions, type SessionInfo, type SignInOptions, type SignInResult, type SignOutOptions } from './create-auth-client.js'
export { AuthClientError, type AuthClientErrorCode } from './errors.js'
export type { AppProvider, AuthStatus, Session, SessionState } from './types.js'
