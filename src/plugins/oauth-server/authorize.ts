/**
 * The authorization code flow's front half. GET /oauth2/authorize checks the request (or takes a
 * pushed one, POST /oauth2/par, RFC 9126), keeps it server-side for 10 minutes and sends the
 * browser to GET /oauth2/consent, which asks the user to sign in (any configured way, coming back
 * here) and then to allow the client; POST /oauth2/consent, CSRF-checked, answers. The code goes to
 * the redirect URI with `state` and `iss` (RFC 9207). Until the client and its redirect URI are
 * known good, a refusal is a page here, never a redirect (RFC 6749 §4.1.2.1).
 */
import { ensureCsrfToken, json, readBody, redirect, randomToken, sha256Hex, signedIn, storeOneTimeRecord, verifyCsrf, type Body, type Context, type Reply, type SignedIn } from 'latchkey/server'
import { authenticateClient, matchRedirectUri, param, requestedScopes } from './clients.js'
import { findClient } from './client-lookup.js'
import { checkedForm, consentPage, refusalPage } from './consent-page.js'
import { checkTokenRequestProof, thumbprintPattern } from './dpop.js'
import { asOAuth, OAuthError } from './errors.js'
import { hasScope, keepSignInFacts } from './id-token.js'
import { endpoint, issuerOf, oauthStore, serverOptions } from './instance.js'
import type { AuthorizationRequest, ResolvedClient, ResolvedOAuthServer } from './options.js'
import { interactionParams, promptsOf, signInLacking } from './prompt.js'
import { codeSeconds, purgeExpired } from './purge.js'

export const requestUriPrefix = 'urn:ietf:params:oauth:request_uri:'
const parSeconds = 60
const interactionSeconds = 10 * 60
const pkceChallenge = /^[A-Za-z0-9\-._~]{43,128}$/

/** A refusal the client may hear at its redirect URI. */
class Redirectable extends OAuthError {
  constructor(
    readonly to: { redirectUri: string; state?: string },
    error: OAuthError,
  ) {
    super(error.error, error.description, error.status)
  }
}

/** The client and redirect URI of a request, or the refusal (a page: nobody to redirect to). */
async function clientAndRedirect(ctx: Context, options: ResolvedOAuthServer, params: Body): Promise<{ client: ResolvedClient; redirectUri: string }> {
  const clientId = param(params, 'client_id')
  const client = clientId === undefined ? undefined : await findClient(ctx, options, clientId)
  if (!client) throw new OAuthError('invalid_request', clientId === undefined ? 'client_id is missing' : 'client_id names no registered client')
  if (!client.grantTypes.includes('authorization_code')) throw new OAuthError('unauthorized_client', 'This client may not use the authorization code flow')
  const redirectUri = param(params, 'redirect_uri')
  if (redirectUri === undefined) throw new OAuthError('invalid_request', 'redirect_uri is missing')
  if (!matchRedirectUri(client, redirectUri)) throw new OAuthError('invalid_request', 'redirect_uri is not one registered for this client (it must match whole)')
  return { client, redirectUri }
}

/** The rest of the request, checked once the client and redirect URI are good: refusals go to the client. */
function checkRequest(options: ResolvedOAuthServer, client: ResolvedClient, redirectUri: string, params: Body, userinfo: string): AuthorizationRequest {
  const state = param(params, 'state')
  try {
    if (param(params, 'response_type') !== 'code') throw new OAuthError('unsupported_response_type', 'response_type must be code')
    if (params.request !== undefined) throw new OAuthError('invalid_request', 'Request objects (request) are not supported; use PAR')
    const method = param(params, 'code_challenge_method')
    const challenge = param(params, 'code_challenge')
    if (challenge === undefined) throw new OAuthError('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256')
    if (method !== 'S256') throw new OAuthError('invalid_request', `code_challenge_method must be S256${method === 'plain' ? '; plain is not accepted' : ''}`)
    if (!pkceChallenge.test(challenge)) throw new OAuthError('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier')
    const scope = requestedScopes(client, param(params, 'scope')).join(' ')
    // OpenID Connect without an API: the access token is for the userinfo endpoint alone.
    const resource = param(params, 'resource') ?? (hasScope(scope, 'openid') ? userinfo : undefined)
    if (resource === undefined) throw new OAuthError('invalid_target', `resource is missing: name the API the token is for, one of ${options.resources.join(', ')}`)
    if (!options.resources.includes(resource) && !(resource === userinfo && hasScope(scope, 'openid'))) throw new OAuthError('invalid_target', 'resource is not one this server issues tokens for')
    const jkt = param(params, 'dpop_jkt')
    if (jkt !== undefined && !thumbprintPattern.test(jkt)) throw new OAuthError('invalid_request', 'dpop_jkt must be the base64url SHA-256 JWK thumbprint of the DPoP key (RFC 9449 §10)')
    return { client_id: client.clientId, redirect_uri: redirectUri, scope, code_challenge: challenge, resource, ...(state !== undefined ? { state } : {}), ...interactionParams(params), ...(jkt !== undefined ? { dpop_jkt: jkt } : {}) }
  } catch (error) {
    throw error instanceof OAuthError ? new Redirectable({ redirectUri, state }, error) : error
  }
}

/** The query as a body, refusing a parameter given twice (RFC 6749 §3.1). */
function queryParams(ctx: Context): Body {
  const query = ctx.url.searchParams
  const params: Body = {}
  for (const name of new Set(query.keys())) {
    const all = query.getAll(name)
    params[name] = all.length === 1 ? all[0] : all
  }
  return params
}

/** `redirect_uri` with the answer's parameters added to its query, and `iss` (RFC 9207). */
function answerUrl(ctx: Context, redirectUri: string, fields: Record<string, string | undefined>): string {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries({ ...fields, iss: issuerOf(ctx.config) })) if (value !== undefined) url.searchParams.append(name, value)
  return url.href
}

function refuse(ctx: Context, error: unknown): Reply | Promise<Reply> {
  if (error instanceof Redirectable) {
    ctx.config.logger.warn(`OAuth ${error.error}: ${error.description}`)
    return redirect(ctx, answerUrl(ctx, error.to.redirectUri, { error: error.error, error_description: error.description, state: error.to.state }))
  }
  if (error instanceof OAuthError) {
    ctx.config.logger.warn(`OAuth ${error.error}: ${error.description}`)
    return refusalPage(ctx, 'requestInvalid', error.description, error.status)
  }
  throw error
}

/** GET /oauth2/authorize */
export async function authorize(ctx: Context): Promise<Reply> {
  const options = serverOptions.get(ctx.config)
  try {
    let params = queryParams(ctx)
    const requestUri = param(params, 'request_uri')
    if (requestUri !== undefined) params = await pushedRequest(ctx, params, requestUri)
    const { client, redirectUri } = await clientAndRedirect(ctx, options, params)
    if (options.requirePar && requestUri === undefined) {
      throw new Redirectable({ redirectUri, state: param(params, 'state') }, new OAuthError('invalid_request', 'This server takes authorization requests through PAR only (pushed_authorization_request_endpoint)'))
    }
    const request = checkRequest(options, client, redirectUri, params, endpoint(ctx.config, 'userinfo'))
    const id = randomToken(24)
    await oauthStore(ctx.config).createOAuthRequest({ id, clientId: client.clientId, params: { ...request }, expires: new Date(ctx.now + interactionSeconds * 1000) })
    await purgeExpired(ctx)
    return redirect(ctx, consentUrl(ctx, id))
  } catch (error) {
    return refuse(ctx, error)
  }
}

/** The pushed request named by `request_uri`, spent: its parameters alone count (RFC 9126 §4). */
async function pushedRequest(ctx: Context, params: Body, requestUri: string): Promise<Body> {
  const clientId = param(params, 'client_id')
  if (clientId === undefined) throw new OAuthError('invalid_request', 'client_id is missing')
  const id = requestUri.startsWith(requestUriPrefix) ? requestUri.slice(requestUriPrefix.length) : ''
  const stored = id ? await oauthStore(ctx.config).useOAuthRequest(`par:${id}`) : null
  if (!stored || stored.expires.getTime() <= ctx.now || stored.clientId !== clientId) {
    throw new OAuthError('invalid_request_uri', 'request_uri is unknown, expired, already used, or pushed by another client')
  }
  return stored.params
}

const consentUrl = (ctx: Context, id: string) => `${ctx.baseUrl}/oauth2/consent?${new URLSearchParams({ request: id })}`

/** POST /oauth2/par: the client pushes its request; answered with a one-time `request_uri` good for 60 seconds. */
export function pushAuthorizationRequest(ctx: Context): Promise<Reply> {
  return asOAuth(ctx, async () => {
    const options = serverOptions.get(ctx.config)
    const body = await readBody(ctx.request, ctx.config.maxBodySize)
    const client = await authenticateClient(ctx, body, options)
    if (body.request_uri !== undefined) throw new OAuthError('invalid_request', 'request_uri cannot be pushed')
    // RFC 9449 §10.1: a proof at PAR binds the code to its key, as dpop_jkt would; both must agree.
    const proof = await checkTokenRequestProof(ctx, 'par')
    const { redirectUri } = await clientAndRedirect(ctx, options, { ...body, client_id: client.clientId })
    let request: AuthorizationRequest
    try {
      request = checkRequest(options, client, redirectUri, body, endpoint(ctx.config, 'userinfo'))
    } catch (error) {
      // At PAR the client hears the refusal in the answer itself.
      throw error instanceof Redirectable ? new OAuthError(error.error, error.description, error.status) : error
    }
    if (proof && request.dpop_jkt !== undefined && proof.jkt !== request.dpop_jkt) throw new OAuthError('invalid_dpop_proof', 'dpop_jkt is not the thumbprint of the DPoP proof’s key')
    const id = randomToken(24)
    // The pushed form of the request, as the authorization endpoint will check it again.
    const pushed: Record<string, string> = { ...request, ...(proof ? { dpop_jkt: proof.jkt } : {}), response_type: 'code', code_challenge_method: 'S256' }
    await oauthStore(ctx.config).createOAuthRequest({ id: `par:${id}`, clientId: client.clientId, params: pushed, expires: new Date(ctx.now + parSeconds * 1000) })
    await purgeExpired(ctx)
    return json(ctx, { request_uri: `${requestUriPrefix}${id}`, expires_in: parSeconds }, 201)
  })
}

/** The request a consent URL names, while it is not expired, with the instant it was made. */
async function pendingRequest(ctx: Context, id: string | undefined, spend: boolean): Promise<(AuthorizationRequest & { requestedAt: number }) | null> {
  // Ids with a colon are other records (PAR's, the ID token's facts), never a consent's.
  if (!id || id.length > 64 || id.includes(':')) return null
  const store = oauthStore(ctx.config)
  const found = spend ? await store.useOAuthRequest(id) : await store.getOAuthRequest(id)
  return found && found.expires.getTime() > ctx.now ? { ...(found.params as unknown as AuthorizationRequest), requestedAt: found.expires.getTime() - interactionSeconds * 1000 } : null
}

/** True when the user allowed the client a scope set that holds every scope asked for. */
async function consented(ctx: Context, userId: string, request: AuthorizationRequest): Promise<boolean> {
  const asked = request.scope.split(' ').filter(Boolean)
  const sets = await oauthStore(ctx.config).listOAuthConsents(userId, request.client_id)
  return sets.some((set) => {
    const allowed = set.split(' ')
    return asked.every((s) => allowed.includes(s))
  })
}

/** GET /oauth2/consent?request=: sign in first, then the consent page, or straight on where consent is remembered. */
export async function showConsent(ctx: Context): Promise<Reply> {
  const id = ctx.url.searchParams.get('request') ?? undefined
  const request = await pendingRequest(ctx, id, false)
  if (!request) return refusalPage(ctx, 'requestExpired', undefined, 400)
  const me = await signedIn(ctx)
  const client = await findClient(ctx, serverOptions.get(ctx.config), request.client_id).catch(() => undefined)
  if (!client) return refusalPage(ctx, 'requestExpired', undefined, 400)
  const none = promptsOf(request).includes('none')
  // prompt=none: whatever would need a page ends the request, told to the client (OIDC Core §3.1.2.6).
  const toClient = async (error: string, description: string) => {
    if (!(await pendingRequest(ctx, id, true))) return refusalPage(ctx, 'requestExpired', undefined, 400)
    ctx.config.logger.warn(`OAuth ${error}: ${description}`)
    return redirect(ctx, answerUrl(ctx, request.redirect_uri, { error, error_description: description, state: request.state }))
  }
  const lacking = signInLacking(request, me, request.requestedAt, ctx.now)
  if (lacking === 'unknown') return toClient('login_required', 'This server cannot tell when the user signed in, which prompt=login and max_age need')
  if (lacking || !me) {
    if (none) return toClient('login_required', 'The user must sign in, and prompt=none allows no page')
    const signIn = new URL(ctx.config.pages.signIn ?? `${ctx.baseUrl}/signin`, ctx.origin)
    signIn.searchParams.set('callbackUrl', consentUrl(ctx, id!))
    return redirect(ctx, signIn.href)
  }
  if (!promptsOf(request).includes('consent') && (await consented(ctx, me.user.id, request))) {
    if (!(await pendingRequest(ctx, id, true))) return refusalPage(ctx, 'requestExpired', undefined, 400)
    return issueCode(ctx, request, me)
  }
  if (none) return toClient('consent_required', 'The user has not allowed this client these scopes, and prompt=none allows no page')
  return consentPage(ctx, { id: id!, client, request, account: me.user.email ?? me.user.name ?? me.user.id, csrfToken: await ensureCsrfToken(ctx) })
}

/** POST /oauth2/consent: `decision` allow or deny, with the page's CSRF token. */
export async function answerConsent(ctx: Context): Promise<Reply> {
  const form = await checkedForm(ctx, 'consent')
  if (form.refused) return form.refused
  const { body } = form
  const decision = typeof body.decision === 'string' ? body.decision : undefined
  if (decision !== 'allow' && decision !== 'deny') return refusalPage(ctx, 'requestInvalid', 'decision must be allow or deny', 400)
  const me = await signedIn(ctx)
  if (!me) return refusalPage(ctx, 'requestExpired', undefined, 401)
  const request = await pendingRequest(ctx, typeof body.request === 'string' ? body.request : undefined, true)
  if (!request || !(await findClient(ctx, serverOptions.get(ctx.config), request.client_id).catch(() => undefined))) return refusalPage(ctx, 'requestExpired', undefined, 400)
  if (decision === 'deny') {
    return redirect(ctx, answerUrl(ctx, request.redirect_uri, { error: 'access_denied', error_description: 'The user did not allow the request', state: request.state }))
  }
  await oauthStore(ctx.config).saveOAuthConsent({ userId: me.user.id, clientId: request.client_id, scope: request.scope, at: new Date(ctx.now) })
  return issueCode(ctx, request, me)
}

/**
 * A new grant and its code, `<grant id>.<random>`: the code is a one-time verification token
 * (stored as its SHA-256, 60 seconds), the grant keeps the hash too, so a second use of the code
 * is told from a guess and revokes what the first use issued.
 */
async function issueCode(ctx: Context, request: AuthorizationRequest, me: SignedIn): Promise<Reply> {
  const { signedInAt } = me
  const userId = me.user.id
  const grantId = randomToken(16)
  const code = `${grantId}.${randomToken(32)}`
  const codeHash = await sha256Hex(code)
  const store = oauthStore(ctx.config)
  await store.createOAuthGrant({
    id: grantId,
    clientId: request.client_id,
    userId,
    scope: request.scope,
    resource: request.resource,
    codeHash,
    codeChallenge: request.code_challenge,
    redirectUri: request.redirect_uri,
    authTime: signedInAt === undefined ? null : new Date(signedInAt),
    createdAt: new Date(ctx.now),
    revokedAt: null,
  })
  // dpop_jkt: the grant (its code, then its refresh tokens) is bound to that key from the start.
  if (request.dpop_jkt) await store.bindOAuthGrantKey(grantId, request.dpop_jkt)
  const expires = new Date(ctx.now + codeSeconds * 1000)
  await keepSignInFacts(ctx, grantId, request, { amr: me.read.record?.amr ?? me.read.session?.amr, expires })
  // Stored as the kernel stores its one-time tokens, which purges expired ones (expired codes too) beside the write.
  await storeOneTimeRecord(ctx, { identifier: codeIdentifier(grantId), token: codeHash, expires }, 'The authorization server’s codes')
  await purgeExpired(ctx)
  return redirect(ctx, answerUrl(ctx, request.redirect_uri, { code, state: request.state }))
}

export const codeIdentifier = (grantId: string) => `oauth-code:${grantId}`
