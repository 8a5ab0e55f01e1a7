/**
 * The adapters that need no database driver. The SQL adapter lives in `./postgres/index.js`, so
 * importing the memory adapter never pulls in SQL code.
 */
export { MemoryAdapter } from './memory.js'
export { AdapterError, type AdapterErrorCode } from './errors.js'
export type { CompleteAdapter } from './types.js'
