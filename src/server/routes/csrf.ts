/** GET /csrf: `{ csrfToken }`, setting the double-submit cookie when there is none. */
import type { Context } from '../context.js'
import { ensureCsrfToken } from '../csrf.js'
import { json } from '../respond.js'

export async function getCsrf(ctx: Context): Promise<Response> {
  return json(ctx, { csrfToken: await ensureCsrfToken(ctx) })
}
