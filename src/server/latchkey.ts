/** `Latchkey(config)`: the Web-standard handler, `(Request) => Promise<Response>`. */
import type { AuthConfig } from '../core/types.js'
import { AuthError, clientErrorType } from '../core/errors.js'
import { resolveConfig } from './config.js'
import { contextFor, WebIncoming, type Context, type Incoming } from './context.js'
import { errorMessages } from './pages.js'
import { RateLimitError } from './rate-limit/check.js'
import { json, redirect } from './respond.js'
import { callback } from './routes/callback.js'
import { getCsrf } from './routes/csrf.js'
import { getErrorPage, getVerifyRequestPage } from './routes/pages.js'
import { getProviders } from './routes/providers.js'
import { getSession, postSession } from './routes/session.js'
import { getSignInPage, postSignIn } from './routes/signin.js'
import { getSignOutPage, postSignOut } from './routes/signout.js'
import { getWebAuthnOptions } from './webauthn/options-route.js'
import { getPasskeys, postPasskeys } from './webauthn/passkeys-route.js'

type Route = (ctx: Context, providerId: string | undefined) => Promise<Response>
interface Action {
  GET?: Route
  POST?: Route
  /** Takes a provider id as the next path segment. */
  provider?: boolean
  /** Failures send the browser to a page rather than answering JSON. */
  flow?: boolean
}

const actions: Record<string, Action> = {
  providers: { GET: getProviders },
  csrf: { GET: getCsrf },
  session: { GET: getSession, POST: postSession },
  signin: { GET: getSignInPage, POST: postSignIn, provider: true, flow: true },
  callback: { GET: callback, POST: callback, provider: true, flow: true },
  signout: { GET: getSignOutPage, POST: postSignOut, flow: true },
  error: { GET: getErrorPage },
  'verify-request': { GET: getVerifyRequestPage },
  'webauthn-options': { GET: getWebAuthnOptions, provider: true },
  passkeys: { GET: getPasskeys, POST: postPasskeys },
}

export type Handler = (request: Request) => Promise<Response>

/** The node binding's way in (node.ts): no `Request` unless a route asks, bodies on the side. */
export const handleIncoming = Symbol('latchkey.handleIncoming')
export type IncomingHandler = (incoming: Incoming, bodyAside: boolean) => Promise<Response>

/** Extra routes, such as WebAuthn's, register here. */
export function registerAction(name: string, action: Action): void {
  actions[name] = action
}

export function Latchkey(config: AuthConfig): Handler {
  const resolved = resolveConfig(config)
  // Plain functions, not async ones: each async layer costs microtask hops on every request.
  const handle: IncomingHandler = (incoming, bodyAside) => {
    let ctx: Context
    try {
      ctx = contextFor(incoming, resolved, bodyAside)
    } catch {
      return Promise.resolve(malformed())
    }
    return respond(ctx)
  }
  const handler: Handler = (request) => {
    let incoming: Incoming
    try {
      incoming = new WebIncoming(request)
    } catch {
      return Promise.resolve(malformed())
    }
    return handle(incoming, false)
  }
  return Object.assign(handler, { [handleIncoming]: handle })
}

function malformed(): Response {
  return new Response(JSON.stringify({ error: 'InvalidRequest', message: 'Malformed request URL' }), { status: 400, headers: { 'content-type': 'application/json' } })
}

async function respond(ctx: Context): Promise<Response> {
  const method = ctx.incoming.method
  if (method === 'OPTIONS') return preflight(ctx)
  addCorsHeaders(ctx, ctx.headers)
  const path = ctx.url.pathname
  const base = ctx.config.basePath
  if (path !== base && !path.startsWith(base + '/')) return json(ctx, { error: 'UnknownAction', message: `Expected a path under ${base}` }, 404)
  const [name, providerId, ...rest] = path.slice(base.length + 1).split('/').map(safeDecode)
  const action = Object.hasOwn(actions, name ?? '') ? actions[name!] : undefined
  if (!action || rest.length || (providerId !== undefined && !action.provider)) {
    return json(ctx, { error: 'UnknownAction', message: `Unknown action: ${path}` }, 404)
  }
  const route = method === 'GET' || method === 'HEAD' ? action.GET : method === 'POST' ? action.POST : undefined
  if (!route) {
    const allow = ['GET', 'POST'].filter((m) => action[m as 'GET' | 'POST']).join(', ')
    ctx.headers.set('allow', allow)
    return json(ctx, { error: 'UnknownAction', message: `${name} takes ${allow}, not ${method}` }, 405)
  }
  try {
    return await route(ctx, providerId)
  } catch (error) {
    return fail(ctx, error, action.flow === true)
  }
}

/** Logs in full on the server; tells the browser only a client-safe type. */
function fail(ctx: Context, error: unknown, flow: boolean): Response {
  if (error instanceof RateLimitError) ctx.headers.set('retry-after', String(error.retryAfter))
  const type = clientErrorType(error)
  const status = error instanceof AuthError ? error.status : 500
  if (type === 'Configuration' || status >= 500) {
    ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)))
  } else {
    ctx.config.logger.warn(`${type}: ${(error as Error).message}`)
  }
  // Nothing half-done may stick: drop cookies a failed route meant to set, except clearing ones.
  ctx.setCookies = ctx.setCookies.filter((c) => /Max-Age=0/.test(c))
  // A malformed request is the caller's bug, not a sign-in outcome: it is answered, not redirected.
  const malformed = error instanceof AuthError && (error.type === 'InvalidRequest' || error.type === 'PayloadTooLarge')
  if (!flow || malformed) {
    const message = type === 'Configuration' ? errorMessages.Configuration : (error as Error).message
    return json(ctx, { error: type, message }, type === 'Configuration' ? 500 : status)
  }
  const page = type === 'CredentialsSignin' ? (ctx.config.pages.signIn ?? `${ctx.baseUrl}/signin`) : (ctx.config.pages.error ?? `${ctx.baseUrl}/error`)
  const url = `${page}${page.includes('?') ? '&' : '?'}error=${encodeURIComponent(type)}`
  if (ctx.returnRedirect) return json(ctx, { url, error: type }, type === 'Configuration' ? 500 : status)
  return redirect(ctx, url)
}

/** CORS headers for a trusted origin, onto `headers`. */
function addCorsHeaders(ctx: Context, headers: Headers): void {
  const origin = ctx.incoming.header('origin')
  if (origin && ctx.config.trustedOrigins.has(origin)) {
    headers.set('access-control-allow-origin', origin)
    headers.set('access-control-allow-credentials', 'true')
    headers.set('access-control-expose-headers', 'Latchkey-Session, Latchkey-WebAuthn-Error, Retry-After')
    headers.set('vary', 'Origin')
  }
}

function preflight(ctx: Context): Response {
  const cors = new Headers()
  addCorsHeaders(ctx, cors)
  if (!cors.has('access-control-allow-origin')) {
    return Response.json({ error: 'InvalidRequest', message: 'Cross-origin calls are allowed only from the configured trustedOrigins' }, { status: 403 })
  }
  cors.set('access-control-allow-methods', 'GET, POST')
  cors.set('access-control-allow-headers', 'content-type, x-auth-return-redirect')
  cors.set('access-control-max-age', '600')
  return new Response(null, { status: 204, headers: cors })
}

function safeDecode(segment: string): string {
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
