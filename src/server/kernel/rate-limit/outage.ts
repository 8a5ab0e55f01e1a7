/**
 * The store's outages, as the requests meet them: the first failure says once what the limits do
 * until the store answers again (which actions answer 503, which pass uncounted), and the first
 * answer after it says they count again. A store down for a minute under load is two log lines,
 * not one per request. Keys are never logged: the cause is the store's own error (the Redis store
 * names what timed out, never the key), and the keys hash accounts anyway (check.ts).
 */
import { AuthError } from '../../../core/errors.js'
import type { Logger } from '../../../core/config.js'
import type { StoreFailurePolicy, StoreOutage } from '../../../core/rate-limit.js'

export function storeOutage(logger: Logger, whenStoreFails: Record<string, StoreFailurePolicy>): StoreOutage {
  let down = false
  let missed = 0
  const actions = (policy: StoreFailurePolicy) => Object.keys(whenStoreFails).filter((action) => whenStoreFails[action] === policy)
  return {
    get down() {
      return down
    },
    failed(cause) {
      missed++
      if (down) return
      down = true
      const closed = actions('closed')
      const open = actions('open')
      const until = [closed.length && `503 StoreUnavailable for ${closed.join(', ')}`, open.length && `uncounted for ${open.join(', ')}`].filter(Boolean).join('; ')
      logger.error(
        new AuthError('StoreUnavailable', `The rate-limit store failed: ${(cause as Error)?.message ?? String(cause)}. Until it answers again: ${until} (rateLimit.whenStoreFails)`, { cause, status: 503 }),
      )
    },
    answered() {
      if (!down) return
      logger.warn(`StoreAvailable: the rate-limit store answers again, after ${missed} request${missed === 1 ? '' : 's'} it could not count; the limits count again`)
      down = false
      missed = 0
    },
  }
}
