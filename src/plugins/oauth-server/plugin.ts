/**
 * `oauthServer(options)`: latchkey as an OAuth 2.1 authorization server, one plugin. Its routes:
 * the metadata (RFC 8414) and each same-origin resource's metadata (RFC 9728) at the origin's
 * root, and under basePath `/oauth2/authorize`, `/oauth2/consent`, `/oauth2/par`, `/oauth2/token`,
 * `/oauth2/revoke`, `/oauth2/introspect`, `/oauth2/jwks`. The object is also the app's way to
 * check a token on this instance: `verifyAccessToken(request, { resource, scopes })`.
 */
import { configurationError, json, type Action, type Context, type LatchkeyPlugin, type ResolvedConfig, type Reply, type Route } from 'latchkey/server'
import { answerConsent, authorize, pushAuthorizationRequest, showConsent } from './authorize.js'
import { answerDevicePage, deviceAuthorization, showDevicePage, userCodeAction } from './device.js'
import { oauth2Cors, publicCors } from './cors.js'
import { dpopAlgorithms } from './dpop.js'
import { actOnConnectedApps, connectedAppErrors, listConnectedApps, onAccountEvent } from './connected-apps.js'
import { endpoint, issuerOf, serverOptions, storeMethods } from './instance.js'
import { jwks } from './keys.js'
import { messages } from './messages.js'
import { openIdConfiguration, openIdOn, userinfo } from './oidc.js'
import { isLoopbackHost, resolveOptions, type OAuthServerOptions, type ResolvedOAuthServer } from './options.js'
import { resourceMetadata, verifyLocal, type VerifiedAccessToken, type VerifyAccessTokenOptions } from './resource.js'
import { register } from './registration.js'
import { oauthServerSchema } from './store.js'
import { introspect, introspectionAction, revoke, token, tokenAction } from './tokens.js'

export interface OAuthServer extends LatchkeyPlugin {
  /**
   * The request's bearer token, checked against this instance's keys and grants (a revoked grant's
   * tokens are refused at once): the token, or the Response to send (401/403 with `WWW-Authenticate`
   * naming the resource's metadata). Call it once `Latchkey({ plugins: [this] })` is made.
   */
  verifyAccessToken(request: Request, options: VerifyAccessTokenOptions): Promise<VerifiedAccessToken | Response>
}

function metadata(ctx: Context): Reply {
  const config = ctx.config
  const options = serverOptions.get(config)
  const grants = new Set([...options.clients.values()].flatMap((c) => c.grantTypes))
  const auth = ['client_secret_basic', 'client_secret_post', 'none']
  return json(ctx, {
    issuer: issuerOf(config),
    authorization_endpoint: endpoint(config, 'authorize'),
    token_endpoint: endpoint(config, 'token'),
    jwks_uri: endpoint(config, 'jwks'),
    revocation_endpoint: endpoint(config, 'revoke'),
    introspection_endpoint: endpoint(config, 'introspect'),
    pushed_authorization_request_endpoint: endpoint(config, 'par'),
    require_pushed_authorization_requests: options.requirePar,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...grants],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: Object.keys(options.scopes),
    token_endpoint_auth_methods_supported: auth,
    revocation_endpoint_auth_methods_supported: auth,
    introspection_endpoint_auth_methods_supported: auth.slice(0, 2),
    authorization_response_iss_parameter_supported: true,
    ...(options.registration ? { registration_endpoint: endpoint(config, 'register') } : {}),
    ...(options.documents ? { client_id_metadata_document_supported: true } : {}),
    device_authorization_endpoint: endpoint(config, 'device_authorization'),
    dpop_signing_alg_values_supported: dpopAlgorithms,
  })
}

const notFound = (ctx: Context, what: string) => json(ctx, { error: 'invalid_request', error_description: what }, 404)

const getRoutes: Record<string, Route> = {
  authorize: (ctx) => authorize(ctx),
  consent: (ctx) => showConsent(ctx),
  device: (ctx) => showDevicePage(ctx),
  jwks: async (ctx) => json(ctx, await jwks(ctx.config)),
  userinfo: (ctx) => userinfo(ctx),
}
const postRoutes: Record<string, Route> = {
  consent: (ctx) => answerConsent(ctx),
  par: (ctx) => pushAuthorizationRequest(ctx),
  device_authorization: (ctx) => deviceAuthorization(ctx),
  device: (ctx) => answerDevicePage(ctx),
  token: (ctx) => token(ctx),
  revoke: (ctx) => revoke(ctx),
  introspect: (ctx) => introspect(ctx),
  register: (ctx) => register(ctx),
  userinfo: (ctx) => userinfo(ctx),
}

function dispatch(table: Record<string, Route>, method: string): Route {
  return async (ctx, name) => {
    const route = name !== undefined && Object.hasOwn(table, name) ? table[name]! : undefined
    if (route) return route(ctx, undefined)
    const other = method === 'GET' ? postRoutes : getRoutes
    if (name !== undefined && Object.hasOwn(other, name)) {
      ctx.headers.allow = other === postRoutes ? 'POST' : 'GET'
      return json(ctx, { error: 'invalid_request', error_description: `/oauth2/${name} takes ${ctx.headers.allow}` }, 405)
    }
    return notFound(ctx, `Expected /oauth2/ followed by one of ${[...new Set([...Object.keys(getRoutes), ...Object.keys(postRoutes)])].join(', ')}`)
  }
}

/** GET /.well-known/oauth-protected-resource<path>: the configured resources at that path, the one on the request's origin. */
function resourceRoutes(options: ResolvedOAuthServer): Record<string, Action> {
  const byPath = new Map<string, string[]>()
  for (const resource of options.resources) {
    const url = new URL(resource)
    const name = `.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`
    byPath.set(name, [...(byPath.get(name) ?? []), resource])
  }
  return Object.fromEntries(
    [...byPath].map(([name, resources]) => [
      name,
      {
        cors: () => publicCors,
        GET: async (ctx: Context) => {
          const resource = resources.find((r) => new URL(r).origin === ctx.origin)
          if (!resource) return notFound(ctx, 'No protected resource of this server is at this origin')
          return json(ctx, resourceMetadata(resource, issuerOf(ctx.config), Object.keys(options.scopes)))
        },
      },
    ]),
  )
}

export function oauthServer(given: OAuthServerOptions): OAuthServer {
  const options = resolveOptions(given)
  let installed: ResolvedConfig | undefined
  return {
    id: 'oauth-server',
    messages,
    errorCodes: connectedAppErrors,
    schema: oauthServerSchema,
    adapterMethods: () => storeMethods,
    rateLimits: {
      // Each one adds a row that lasts: counted per network address, open or not.
      oauthRegistration: { label: 'client registrations', rules: [{ per: 'client', limit: 20, windowSeconds: 3600 }] },
      // Codes typed on the device page: 20^8 codes, so guessing one that is out takes billions of tries.
      // Per client_id (as the "account") and per network address, counted once the client authenticated.
      // Open when the store fails: a token request is already bound to a code, refresh token or secret.
      [tokenAction]: {
        label: 'token requests',
        accountName: 'client',
        whenStoreFails: 'open',
        rules: [{ per: 'account', limit: 1200, windowSeconds: 60 }, { per: 'client', limit: 300, windowSeconds: 60 }],
      },
      [introspectionAction]: { label: 'introspection requests', accountName: 'client', whenStoreFails: 'open', rules: [{ per: 'account', limit: 3000, windowSeconds: 60 }, { per: 'client', limit: 3000, windowSeconds: 60 }] },
      [userCodeAction]: { label: 'device codes', whenStoreFails: 'closed', rules: [{ per: 'account', limit: 10, windowSeconds: 15 * 60 }, { per: 'client', limit: 20, windowSeconds: 15 * 60 }] },
    },
    routes: {
      // Metadata and keys are public: any origin may read them (a browser-based client discovers the server).
      '.well-known/oauth-authorization-server': { GET: async (ctx) => metadata(ctx), cors: () => publicCors },
      ...resourceRoutes(options),
      ...(openIdOn(options) && { '.well-known/openid-configuration': { GET: async (ctx: Context) => openIdConfiguration(ctx, metadata(ctx)), cors: () => publicCors } }),
      'connected-apps': { GET: listConnectedApps, POST: actOnConnectedApps },
      oauth2: { GET: dispatch(getRoutes, 'GET'), POST: dispatch(postRoutes, 'POST'), provider: true, cors: oauth2Cors },
    },
    configure(_, resolved) {
      if (!resolved.adapter) throw configurationError('latchkey: oauthServer needs an adapter, which keeps its keys, grants and refresh tokens: adapter: PostgresAdapter(db, { plugins: [oauth] }) (or MemoryAdapter({ plugins: [oauth] }) in tests)')
      const issuer = resolved.originRule.first
      if (!issuer) {
        throw configurationError('latchkey: oauthServer needs the app’s public origin as its issuer: set origin (or AUTH_URL) to it, such as "https://app.example.com"; a request’s Host never names the issuer')
      }
      const url = new URL(issuer)
      if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname)) throw configurationError(`latchkey: oauthServer's issuer (origin) must use https, got ${issuer}`)
      serverOptions.set(resolved, options)
      installed = resolved
    },
    onSignOutEverywhere: (ctx, { userId }) => onAccountEvent(ctx, userId, options.grantsOnSignOutEverywhere),
    onPasswordReset: (ctx, { userId }) => onAccountEvent(ctx, userId, options.grantsOnPasswordReset),
    verifyAccessToken(request, verify) {
      if (!installed) throw configurationError('latchkey: oauthServer.verifyAccessToken was called before Latchkey({ plugins: [oauth] }) installed the plugin')
      return verifyLocal(installed, request, verify)
    },
  }
}
