/** latchkey/passkey: the passkey plugin, `createAuthClient({ plugins: [passkey()] })`, which adds `client.passkey`. */
export { passkey, type PasskeyPluginOptions } from './plugin.js'
export type { PasskeyClient, PasskeyHint, PasskeyResult, RegisterOptions, SignInOptions } from './client.js'
export { PasskeyError, type PasskeyErrorCode, type PasskeyErrorKind } from './errors.js'
export type { ClientCapabilities } from './capabilities.js'
export type { PasskeyInfo, PasskeySignals } from '../../core/types.js'
