/**
 * Cross-origin calls (CORS), one mechanism for every route. By default the app's own pages on
 * `trustedOrigins` may call with credentials (the session cookie). A route that declares its own
 * rule (`Action.cors`: a plugin's endpoints for other apps, such as the OAuth server's) gets that
 * rule alone: the origins it names, never credentials, its methods and headers.
 */
import type { Context } from './context.js'
import { crossOriginRefusal } from './public-origin.js'
import { json, reply, type Reply } from './respond.js'
import type { Action, CorsRule } from './types.js'

/** Request headers a page may send without a preflight asking for them (Fetch's CORS-safelisted ones). */
const safelisted = new Set(['accept', 'accept-language', 'content-language', 'content-type'])

/** CORS headers for a trusted origin, onto `headers`; answers whether the origin is trusted. */
function trustedCors(ctx: Context, headers: Record<string, string>): boolean {
  if (!ctx.config.trustedOrigins.size) return false
  const origin = ctx.incoming.header('origin')
  if (!origin || !ctx.config.trustedOrigins.has(origin)) return false
  headers['access-control-allow-origin'] = origin
  headers['access-control-allow-credentials'] = 'true'
  headers['access-control-expose-headers'] = 'Latchkey-Session, Latchkey-WebAuthn-Error, Retry-After'
  headers.vary = 'Origin'
  return true
}

/** A route's own rule onto `headers`: the request's origin echoed only when the rule names it; never credentials. */
function ruleCors(ctx: Context, rule: CorsRule, headers: Record<string, string>): boolean {
  const origin = ctx.incoming.header('origin')
  if (rule.origins === '*') headers['access-control-allow-origin'] = '*'
  else {
    headers.vary = 'Origin'
    if (!origin || !rule.origins.has(origin)) return false
    headers['access-control-allow-origin'] = origin
  }
  if (rule.expose.length) headers['access-control-expose-headers'] = rule.expose.join(', ')
  return true
}

/** The action a path names and its sub-path segment, where one does. */
export type RouteAt = { action: Action; sub: string | undefined } | undefined

/** CORS headers for a request (not a preflight), onto the reply's headers. */
export function addCorsHeaders(ctx: Context, at: RouteAt): void {
  if (!at?.action.cors) return void trustedCors(ctx, ctx.headers)
  const rule = at.action.cors(ctx, at.sub)
  if (rule) ruleCors(ctx, rule, ctx.headers)
}

/** OPTIONS: 204 with what the origin may send, or 403 saying why not. */
export function preflight(ctx: Context, at: RouteAt): Reply {
  const cors: Record<string, string> = {}
  if (!at?.action.cors) {
    if (!trustedCors(ctx, cors)) return refused(ctx, crossOriginRefusal(ctx.incoming, ctx.origin))
    cors['access-control-allow-methods'] = 'GET, POST'
    cors['access-control-allow-headers'] = 'content-type, x-auth-return-redirect'
    cors['access-control-max-age'] = '600'
    return reply(204, cors)
  }
  const rule = at.action.cors(ctx, at.sub)
  if (!rule || !ruleCors(ctx, rule, cors)) return refused(ctx, 'Cross-origin calls to this endpoint are allowed only from the origins its configuration names')
  const method = ctx.incoming.header('access-control-request-method') ?? ''
  if (!rule.methods.includes(method)) return refused(ctx, `This endpoint takes ${rule.methods.join(', ')} across origins`)
  const asked = (ctx.incoming.header('access-control-request-headers') ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)
  // Only the rule's own headers are ever named: what the request asked for is not echoed.
  if (asked.some((h) => !safelisted.has(h) && !rule.headers.includes(h))) return refused(ctx, `Across origins this endpoint takes only the request headers ${rule.headers.join(', ')}`)
  cors['access-control-allow-methods'] = rule.methods.join(', ')
  if (rule.headers.length) cors['access-control-allow-headers'] = rule.headers.join(', ')
  cors['access-control-max-age'] = '600'
  return reply(204, cors)
}

function refused(ctx: Context, message: string): Reply {
  ctx.config.logger.warn(`InvalidRequest: a preflight refused. ${message}`)
  return json(ctx, { error: 'InvalidRequest', message }, 403)
}
