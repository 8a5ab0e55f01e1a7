/** GET /session reads the session; POST /session updates it through the callbacks. */
import { readBody } from '../body.js'
import type { Context } from '../context.js'
import { verifyCsrf } from '../csrf.js'
import { json } from '../respond.js'
import { readSession, updateSession } from '../session.js'

export async function getSession(ctx: Context): Promise<Response> {
  const { session } = await readSession(ctx)
  if (session) await ctx.config.events.session?.({ session })
  return json(ctx, session)
}

export async function postSession(ctx: Context): Promise<Response> {
  const body = await readBody(ctx.request, ctx.config.maxBodySize)
  await verifyCsrf(ctx, body.csrfToken)
  return json(ctx, await updateSession(ctx, body.data))
}
