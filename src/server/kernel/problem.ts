/**
 * A start-up check's finding in two parts, what is wrong and the fix: `Latchkey(config)` throws it
 * as one message, `latchkey doctor` prints the fix on its own line. One text for both, so the two
 * never drift apart.
 */
import { AuthError, type ErrorType } from '../../core/errors.js'

export interface Problem {
  code: ErrorType
  /** What is wrong, starting in lower case: it follows "latchkey: " in the thrown message. */
  what: string
  fix: string
}

export function problemError(problem: Problem): AuthError {
  return new AuthError(problem.code, `latchkey: ${problem.what} ${problem.fix}`, { status: 500 })
}
