/** `Latchkey(config)`: the Web-standard handler, `(Request) => Promise<Response>`. */
import type { AuthConfig, Session } from '../core/types.js'
import { timingHeader } from '../core/session-rule.js'
import { createGetSession, type GetSession, type ReadSession } from './app/get-session.js'
import { createGetAccessToken, type GetAccessToken } from './features/oauth/get-access-token.js'
import { settled } from './kernel/after-answer.js'
import { isFresh, signedInAtOf } from './kernel/fresh.js'
import { AuthError, clientErrorType, configurationError } from '../core/errors.js'
import { resolveConfig, type ResolvedConfig } from './kernel/config.js'
import { reportInstance } from './kernel/instances.js'
import { contextFor, untrustedHostMessage, WebIncoming, type Context, type Incoming } from './kernel/context.js'
import { addCorsHeaders, preflight, type RouteAt } from './kernel/cors.js'
import { publicOrigin } from './kernel/public-origin.js'
import english from '../locales/en/pages.js'
import { RateLimitStoreUnavailable } from './kernel/rate-limit/check.js'
import { json, jsonHeaders, redirectWithError, reply, toResponse, type Reply } from './kernel/respond.js'
import { callback } from './routes/callback.js'
import { getCsrf } from './routes/csrf.js'
import { healthAnswer, markDraining } from './routes/health.js'
import { getErrorPage, getVerifyRequestPage } from './routes/pages.js'
import { getPlugins, sharedPartId } from './routes/plugins.js'
import { getProviders } from './routes/providers.js'
import { getSession, postSession } from './routes/session.js'
import { getSignInPage, postSignIn } from './routes/signin.js'
import { getSignOutPage, postSignOut } from './routes/signout.js'
import { features } from './features/index.js'
import { confirmCookie } from './sign-in/confirm.js'
import type { Action, LatchkeyPlugin, Route } from './kernel/plugin.js'

/** The routes every instance has, whatever its features: the Auth.js wire protocol. */
const coreActions: Record<string, Action> = {
  providers: { GET: getProviders, wordless: true },
  plugins: { GET: getPlugins, wordless: true },
  csrf: { GET: getCsrf, wordless: true },
  session: { GET: getSession, POST: postSession, wordless: true },
  signin: { GET: getSignInPage, POST: postSignIn, provider: true, flow: true },
  callback: { GET: callback, POST: callback, provider: true, flow: true },
  signout: { GET: getSignOutPage, POST: postSignOut, flow: true },
  error: { GET: getErrorPage },
  'verify-request': { GET: getVerifyRequestPage },
}

/** Answered before the route table and the Host check (routes/health.ts): no plugin may take the name. */
const reservedActions = ['health']

/** What every instance has besides its features: the shared sign-in step's cookie ("confirm it's you" across a site it leaves). */
const shared: LatchkeyPlugin = { id: sharedPartId, cookies: [confirmCookie] }

/** What every instance is built from: the shared sign-in step and the built-in plugins (the configuration's join them). */
export const instanceParts: readonly LatchkeyPlugin[] = [shared, ...features]

/** This instance's route table: the core's and its features'. */
function routeTable(list: readonly LatchkeyPlugin[]): Record<string, Action> {
  const table: Record<string, Action> = { ...coreActions }
  for (const feature of list) {
    for (const [name, action] of Object.entries(feature.routes ?? {})) {
      if (Object.hasOwn(table, name) || reservedActions.includes(name)) throw configurationError(`latchkey: plugin "${feature.id}" answers ${name}, which another part of the instance answers already; give its route another name`)
      table[name] = action
    }
  }
  return table
}

export type Handler = (request: Request) => Promise<Response>

/** The node binding's way in (src/node/handler.ts): no `Request` unless a route asks, and a `Reply` rather than a `Response`. */
export const handleIncoming = Symbol('latchkey.handleIncoming')
export type IncomingHandler = (incoming: Incoming) => Promise<Reply>

/** `latchkey/node`'s `getSession` (src/node/session.ts): the session read over node's request, with no Web `Request` built. */
export const readIncomingSession = Symbol('latchkey.readIncomingSession')
export type { ReadSession }

/** What the node binding checks a framework's mount path against (src/node/mount.ts): basePath, and where to say it is wrong. */
export const mountTarget = Symbol('latchkey.mountTarget')
export type MountTarget = { basePath: string; report(message: string): void }

/** What `Latchkey(config)` returns: the handler, and the session of any request to the app. */
export type LatchkeyHandler<S extends Session = Session> = Handler & {
  /** See `GetSession`: the same answer as GET /session, for the app's own routes. */
  getSession: GetSession<S>
  /**
   * True when the session's sign-in (`signedInAt`) was at most `maxAgeSeconds` ago (default
   * `session.freshAge`), on the configured clock. A session without `signedInAt` is not fresh.
   */
  isFresh(session: Session, maxAgeSeconds?: number): boolean
  /**
   * True when the request's session may do `permission` (`resource:action`, such as
   * `project:delete`), as the installed plugins that decide permissions say (the organizations
   * plugin: by the member's role in the session's active organization); false when signed out.
   * Given a `response`, a due session is extended there, as `getSession` does. Throws a
   * configuration error where no installed plugin decides permissions.
   */
  can(request: Request, permission: string, response?: Headers): Promise<boolean>
  /** As `can`, for a session already read (`getSession`): false for null. */
  permits(session: Session | null, permission: string): boolean
  /** A linked account's provider access token, refreshed when due (see src/server/features/oauth/access-token.ts). */
  getAccessToken: GetAccessToken
  /**
   * Settles when the work routes started after answering has finished (the emails of POST
   * /password/forgot and verify-again); failures are logged, never thrown here. Where the runtime
   * stops at the response (Cloudflare Workers, Vercel functions), hand it to `waitUntil`.
   */
  settled(): Promise<void>
  /**
   * This instance is going away: from now on GET {basePath}/health/ready answers 503, so a load
   * balancer sends it no new requests; every other route still answers. latchkey/node's
   * `gracefulShutdown` calls it on SIGTERM; call it yourself on another runtime. It cannot be undone.
   */
  drain(): void
}

/**
 * The sign-in service. The session type `S` follows what the `session` callback returns, so
 * `auth.getSession`, `requireSession` and `withSession` hand the app that type.
 */
export function Latchkey<S extends Session = Session>(config: AuthConfig<S>): LatchkeyHandler<S> {
  const watched = reportInstance(config as AuthConfig)
  const resolved = resolveConfig(config as AuthConfig, instanceParts)
  const actions = routeTable(resolved.plugins)
  const readSession = createGetSession<S>(resolved)
  const handle: IncomingHandler = (incoming) => answer(incoming, resolved, actions, asIs)
  const handler: Handler = (request) => {
    let incoming: Incoming
    try {
      incoming = new WebIncoming(request)
    } catch {
      return Promise.resolve(toResponse(malformed()))
    }
    return answer(incoming, resolved, actions, toResponse)
  }
  const permits = permissionCheck(resolved.plugins)
  const instance = Object.assign(handler, {
    [handleIncoming]: handle,
    [mountTarget]: { basePath: resolved.basePath, report: (message: string) => resolved.logger.error(configurationError(message)) } satisfies MountTarget,
    getSession: readSession,
    [readIncomingSession]: readSession,
    permits,
    can: async (request: Request, permission: string, response?: Headers) => {
      permits(null, permission)
      return permits(await readSession(request, response), permission)
    },
    getAccessToken: createGetAccessToken(resolved, config as AuthConfig),
    isFresh: (session: Session, maxAgeSeconds = resolved.session.freshAge) => isFresh(signedInAtOf(session), resolved.now(), maxAgeSeconds),
    settled: () => settled(resolved),
    drain: () => markDraining(resolved),
  })
  if (watched) watched.handler = instance
  return instance
}

/** `auth.permits`: asks the plugins that decide permissions (`LatchkeyPlugin.permits`); refuses to guess where none is installed. */
function permissionCheck(plugins: readonly LatchkeyPlugin[]): (session: Session | null, permission: string) => boolean {
  const deciders = plugins.filter((p) => typeof p.permits === 'function')
  return (session, permission) => {
    if (!deciders.length) {
      throw configurationError('latchkey: auth.can and auth.permits need a plugin that decides permissions (one with permits), such as organizations() from latchkey/plugins/organizations: add it to plugins in Latchkey({ ... })')
    }
    if (typeof permission !== 'string' || !permission) throw new TypeError('latchkey: auth.can expects a permission such as "project:delete"')
    return session !== null && deciders.some((p) => p.permits!(session, permission) === true)
  }
}

const asIs = (r: Reply): Reply => r
const timingName = timingHeader.toLowerCase()

/**
 * Runs the request's route and hands its reply, or its failure's, to `out`: a Response for the
 * Web handler, the Reply itself for the node binding. Not `async`, and one promise step after the
 * route: each layer costs a microtask on every request.
 */
function answer<T>(incoming: Incoming, config: ResolvedConfig, actions: Record<string, Action>, out: (r: Reply) => T): Promise<T> {
  let ctx: Context
  try {
    const health = healthAnswer(incoming, config)
    if (health) return health.then(out)
    const origin = publicOrigin(config.originRule, incoming)
    if (origin === null) return Promise.resolve(out(untrusted(config)))
    ctx = contextFor(incoming, config, origin)
  } catch {
    return Promise.resolve(out(malformed()))
  }
  let flow = false
  try {
    const found = findRoute(ctx, actions)
    if (!('route' in found)) return Promise.resolve(out(found))
    flow = found.flow
    const run = () => found.route(ctx, found.providerId).then(out, (error: unknown) => out(fail(ctx, error, flow)))
    // A plain boolean first: once the languages are in (or for a route with no words), no promise step is added.
    if (found.wordless || config.pageLanguages.loaded) return run()
    return config.pageLanguages.ready.then(run).catch((error: unknown) => out(fail(ctx, error, flow)))
  } catch (error) {
    return Promise.resolve(out(fail(ctx, error, flow)))
  }
}

function malformed(): Reply {
  return reply(400, { ...jsonHeaders }, JSON.stringify({ error: 'InvalidRequest', message: 'Malformed request URL' }))
}

/** A forged or unknown Host: answered before any route runs, so nothing is read, sent or stored. */
function untrusted(config: ResolvedConfig): Reply {
  config.logger.warn('UntrustedHost: refused a request whose Host is neither a configured origin nor a loopback host')
  return reply(400, { ...jsonHeaders }, JSON.stringify({ error: 'UntrustedHost', message: untrustedHostMessage }))
}

/** The route for the request's method and path, or the reply that says why there is none. */
function findRoute(ctx: Context, actions: Record<string, Action>): Reply | { route: Route; providerId: string | undefined; flow: boolean; wordless: boolean } {
  const method = ctx.incoming.method
  if (method === 'OPTIONS') return preflight(ctx, routeAt(ctx, actions))
  addCorsHeaders(ctx, routeAt(ctx, actions))
  const path = ctx.incoming.pathname
  const base = ctx.config.basePath
  // A feature's `.well-known/...` route answers at the origin's root (RFC 8615), where the app routes that path here.
  const wellKnown = path.startsWith('/.well-known/') && Object.hasOwn(actions, path.slice(1)) ? actions[path.slice(1)]!.GET : undefined
  if (wellKnown && (method === 'GET' || method === 'HEAD')) return { route: wellKnown, providerId: undefined, flow: false, wordless: false }
  if (path !== base && !path.startsWith(base + '/')) return json(ctx, { error: 'UnknownAction', message: `Expected a path under ${base}` }, 404)
  const rest = path.slice(base.length + 1)
  const { name, providerId, extra } = splitAction(rest)
  const action = Object.hasOwn(actions, name) ? actions[name] : undefined
  // The messages name what was expected, never the path or method sent, which are request text.
  if (!action) {
    return json(ctx, { error: 'UnknownAction', message: `Unknown action: expected ${base}/ followed by one of ${Object.keys(actions).join(', ')}` }, 404)
  }
  if (action.subpath) return routeOf(ctx, base, name, action, rest.includes('/') ? rest.slice(rest.indexOf('/') + 1) : undefined)
  if (extra || (providerId !== undefined && !action.provider)) {
    const takes = action.provider ? 'one path segment after it, a provider id' : 'no path segment after it'
    return json(ctx, { error: 'UnknownAction', message: `Unknown action: ${base}/${name} takes ${takes}` }, 404)
  }
  return routeOf(ctx, base, name, action, providerId)
}

/** The action the path names, for its CORS rule: whatever the method, before any other check. */
function routeAt(ctx: Context, actions: Record<string, Action>): RouteAt {
  const path = ctx.incoming.pathname
  const base = ctx.config.basePath
  if (path.startsWith('/.well-known/')) return Object.hasOwn(actions, path.slice(1)) ? { action: actions[path.slice(1)]!, sub: undefined } : undefined
  if (!path.startsWith(base + '/')) return undefined
  const { name, providerId } = splitAction(path.slice(base.length + 1))
  return Object.hasOwn(actions, name) ? { action: actions[name]!, sub: providerId } : undefined
}

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/** The action's route for the request's method (HEAD is GET), or 405 naming the methods it takes. */
function routeOf(ctx: Context, base: string, name: string, action: Action, providerId: string | undefined): Reply | { route: Route; providerId: string | undefined; flow: boolean; wordless: boolean } {
  const method = ctx.incoming.method === 'HEAD' ? 'GET' : ctx.incoming.method
  const route = (methods as readonly string[]).includes(method) ? action[method as (typeof methods)[number]] : undefined
  if (!route) {
    const allow = methods.filter((m) => action[m]).join(', ')
    ctx.headers.allow = allow
    return json(ctx, { error: 'UnknownAction', message: `${base}/${name} takes ${allow}` }, 405)
  }
  return { route, providerId, flow: action.flow === true, wordless: action.wordless === true }
}

/** Logs in full on the server; tells the browser only a client-safe type. */
function fail(ctx: Context, error: unknown, flow: boolean): Reply {
  // 429 RateLimited, 503 StoreUnavailable: when to try again.
  if (error instanceof AuthError && error.retryAfter !== undefined) ctx.headers['retry-after'] = String(error.retryAfter)
  const type = clientErrorType(error, ctx.config.errorCodes)
  const status = error instanceof AuthError ? error.status : 500
  if (error instanceof RateLimitStoreUnavailable) {
    // Logged once for the whole outage (rate-limit/outage.ts), not once per request.
  } else if (type === 'Configuration' || status >= 500) {
    ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)))
  } else {
    ctx.config.logger.warn(`${type}: ${(error as Error).message}`)
  }
  // Nothing half-done may stick: drop cookies a failed route meant to set, except clearing ones.
  // Where the store did not answer, those too: the browser stays as the store is (a sign-out that
  // met the outage leaves the session, and its cookie, to try again with).
  if (type === 'StoreUnavailable') {
    ctx.setCookies = []
    delete ctx.headers[timingName]
  } else ctx.setCookies = ctx.setCookies.filter((c) => /Max-Age=0/.test(c))
  // A malformed request is the caller's bug, not a sign-in outcome: it is answered, not redirected.
  const malformed = error instanceof AuthError && (error.type === 'InvalidRequest' || error.type === 'PayloadTooLarge')
  if (!flow || malformed) {
    const message = type === 'Configuration' ? english.Configuration : (error as Error).message
    return json(ctx, { error: type, message }, type === 'Configuration' ? 500 : status)
  }
  // The person goes on at the sign-in page after a wrong password, or a plugin's refusal it names.
  const onSignInPage = type === 'CredentialsSignin' || ctx.config.plugins.some((p) => p.signInPageErrors?.includes(type))
  const page = onSignInPage ? (ctx.config.pages.signIn ?? `${ctx.baseUrl}/signin`) : (ctx.config.pages.error ?? `${ctx.baseUrl}/error`)
  return redirectWithError(ctx, page, type, type === 'Configuration' ? 500 : status)
}

/** `name[/providerId]` of the path under basePath; `extra` when more segments follow. */
function splitAction(rest: string): { name: string; providerId: string | undefined; extra: boolean } {
  const slash = rest.indexOf('/')
  if (slash < 0) return { name: safeDecode(rest), providerId: undefined, extra: false }
  const next = rest.indexOf('/', slash + 1)
  const providerId = safeDecode(next < 0 ? rest.slice(slash + 1) : rest.slice(slash + 1, next))
  return { name: safeDecode(rest.slice(0, slash)), providerId, extra: next >= 0 }
}

function safeDecode(segment: string): string {
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
