/**
 * Work a route starts after its answer: the route answers at once, the same way whatever the work
 * finds (a password email for an address with an account, nothing for one without), so the time
 * to answer tells nothing. A failure is logged (`ctx.config.logger`), never lost, never the
 * answer's. `settled(config)` is when all of it has finished: the instance's `settled()`, for a
 * runtime that stops at the response (pass it to `waitUntil`) and for tests, which wait on it.
 */
import { AuthError, type ErrorType, type PluginErrorCode } from '../../core/errors.js'
import { instanceKey } from './state.js'
import type { Context, ResolvedConfig } from './types.js'

const running = instanceKey<Set<Promise<void>>>('work after the answer')

/**
 * Runs `work` off the request's path; `what` names it in the log line of a failure, logged as an
 * `AuthError` of `code` (the emails of POST /password/forgot: `EmailSignin`).
 */
export function afterAnswer(ctx: Context, what: string, code: ErrorType | PluginErrorCode, work: () => Promise<void>): void {
  const tasks = running.ensure(ctx.config, () => new Set())
  // A macrotask: the answer is on its way before any of the work runs, even its first steps.
  const task: Promise<void> = new Promise((start) => setTimeout(start, 0))
    .then(work)
    .catch((cause: unknown) => ctx.config.logger.error(cause instanceof AuthError ? cause : new AuthError(code, `${what} failed after the answer`, { cause, status: 502 })))
    .finally(() => tasks.delete(task))
  tasks.add(task)
}

/** Settles when every task started so far, and any they started in turn, has finished. */
export async function settled(config: ResolvedConfig): Promise<void> {
  const tasks = running.find(config)
  while (tasks?.size) await Promise.all(tasks)
}
