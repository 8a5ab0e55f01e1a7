/** The passkey client: `createPasskeyClient({ basePath, getCsrfToken })`, attached by the SDK as `auth.passkey`. */
export {
  createPasskeyClient,
  type PasskeyClient,
  type PasskeyClientOptions,
  type PasskeyHint,
  type PasskeyResult,
  type RegisterOptions,
  type SignInOptions,
} from './client.js'
export { PasskeyError, type PasskeyErrorCode, type PasskeyErrorKind } from './errors.js'
export type { ClientCapabilities } from './capabilities.js'
export type { PasskeyInfo, PasskeySignals } from '../../core/types.js'
