/** GET /csrf: `{ csrfToken }`, setting the double-submit cookie when there is none. */
import type { Context } from '../kernel/context.js'
import { ensureCsrfToken } from '../kernel/csrf.js'
import { json, type Reply } from '../kernel/respond.js'

export async function getCsrf(ctx: Context): Promise<Reply> {
  return json(ctx, { csrfToken: await ensureCsrfToken(ctx) })
}
