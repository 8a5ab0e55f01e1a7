/** GET /session reads the session; POST /session updates it through the callbacks. */
import { readBody } from '../kernel/body.js'
import type { Session } from '../../core/types.js'
import { announceSession, type Context } from '../kernel/context.js'
import { verifyCsrf } from '../kernel/csrf.js'
import { json, type Reply } from '../kernel/respond.js'
import { readSession, updateSession } from '../kernel/session.js'

export async function getSession(ctx: Context): Promise<Reply> {
  const { session, expiresAt } = await sessionAnswer(ctx)
  const challenge = ctx.config.binding?.challengeHeader
  if (challenge !== undefined && ctx.headers[challenge] !== undefined) {
    // Not signed out: the device must prove it holds the session key (POST /dbsc/refresh).
    return json(ctx, { error: 'SessionRefreshRequired', message: 'This session is bound to a device: refresh it with a proof' }, 403)
  }
  // Every read tells the timing, not only the one that extends: a sign-in the worker could not
  // see (an OAuth or email-link navigation) must give the same next refresh as any other. The
  // stored expiry, which the cookie has, whatever the `session` callback made of `expires`.
  if (session && expiresAt !== undefined) announceSession(ctx, expiresAt)
  return json(ctx, session)
}

/**
 * What GET /session answers, and `auth.getSession` too: the read, then the `session` event. A
 * device-bound session whose short cookie lapsed answers null and a `Secure-Session-Challenge`.
 */
export async function sessionAnswer(ctx: Context, extend = true): Promise<{ session: Session | null; expiresAt?: number }> {
  const read = await readSession(ctx, extend)
  if (read.refresh !== undefined) await ctx.config.binding?.askForProof(ctx, ctx.cookies.get(ctx.names.sessionToken)!, read.refresh)
  // Checked first: awaiting an absent handler would still cost a microtask on every read.
  const onSession = ctx.config.events.session
  if (read.session && onSession) await onSession({ session: read.session })
  return read
}

export async function postSession(ctx: Context): Promise<Reply> {
  const body = await readBody(ctx.request, ctx.config.maxBodySize)
  await verifyCsrf(ctx, body.csrfToken)
  return json(ctx, await updateSession(ctx, body.data))
}
