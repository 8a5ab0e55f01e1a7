/** latchkey: the browser SDK. */
export { createAuthClient, type AuthClient, type AuthClientOptions, type AuthClientLanguages, type SignInOptions, type SignInResult, type SignOutOptions, type MfaEnrolment, type MfaCode, type MfaFactor, type MfaMethods, type MfaProof, type MfaState, type PasswordClient, type TrustedDevice } from './create-auth-client.js'
export { AuthClientError, type AuthClientErrorCode } from './errors.js'
export type { AccountInfo, AppProvider, AuthStatus, ProviderForm, Session, SessionInfo, SessionState } from './types.js'
export type { ElementMessages, Language, Plural } from '../locales/index.js'
