/** latchkey/server: the sign-in service. */
export { Latchkey, type Handler } from './latchkey.js'
export { toNodeHandler, toRequest } from './node.js'
export { AuthError, MissingAdapterMethods, type ErrorType } from '../core/errors.js'
export { timingHeader, parseTiming, type SessionTiming } from '../core/session-rule.js'
export type * from '../core/types.js'
export { isDate } from '../core/types.js'
