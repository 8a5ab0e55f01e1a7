/** The server's logger: errors in full on the server, never secrets or tokens. */
import type { Logger } from '../core/types.js'

export function createLogger(custom: Partial<Logger> | undefined): Logger {
  return {
    error: custom?.error ?? ((error) => console.error(`[latchkey][error] ${error.name}: ${error.message}`, error.cause ? { cause: describe(error.cause) } : '')),
    warn: custom?.warn ?? ((code) => console.warn(`[latchkey][warn] ${code}`)),
    debug: custom?.debug ?? (() => {}),
  }
}

function describe(cause: unknown): string {
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)
}
