/**
 * OIDC through a connection, with oauth4webapi: POST /signin/sso sends the browser to the
 * connection's issuer (PKCE, state and nonce, all three, in one sealed cookie that names the
 * connection); GET /callback/sso checks the response (state, and `iss` where the issuer sends
 * it, RFC 9207), exchanges the code with the connection's client, validates the ID token (issuer,
 * audience, signature, time, nonce) and hands the identity to finishSignIn.
 */
import * as oauth from 'oauth4webapi'
import { clearCookie, cookieKey, redirect, setCookie, type Context, type Reply } from 'latchkey/server'
import { serviceProvider, store } from './connections.js'
import { signInRefused } from './errors.js'
import { finishSignIn } from './finish.js'
import { secretUse } from './manage.js'
import { discoverIssuer, requestOptions } from './oidc-discovery.js'
import type { Resolved } from './options.js'
import type { ConnectionRecord } from './records.js'
import { sealFor, unseal, unsealFresh } from './seal.js'

/** The sign-in in flight (OIDC or SAML), sealed: 10 minutes to come back. */
export const flowCookie = cookieKey('sso-flow')
export const flowSeconds = 600
const flowUse = 'flow'

export type Flow = { kind: 'oidc'; connection: string; state: string; nonce: string; verifier: string } | { kind: 'saml'; connection: string; request: string; relay: string }

export async function setFlow(ctx: Context, flow: Flow): Promise<void> {
  setCookie(ctx, flowCookie.of(ctx), await sealFor(ctx, flowUse, flow, flowSeconds), { maxAge: flowSeconds })
}

/** The flow this browser started, read once (the cookie is cleared whatever comes next); null where none or not ours. */
export async function takeFlow(ctx: Context): Promise<Flow | null> {
  const name = flowCookie.of(ctx)
  const sealed = ctx.cookies.get(name)
  if (sealed === undefined) return null
  clearCookie(ctx, name)
  return unsealFresh<Flow>(ctx, flowUse, sealed)
}

function client(ctx: Context, c: ConnectionRecord): oauth.Client {
  // The request's clock, which tests and `now` move, judges the ID token's times.
  return { client_id: c.oidc!.clientId, [oauth.clockSkew]: Math.round((ctx.now - Date.now()) / 1000) }
}

export async function startOidc(ctx: Context, options: Resolved, c: ConnectionRecord, loginHint: string | undefined): Promise<Reply> {
  const as = await discoverIssuer(ctx, options, c.oidc!.issuer)
  const flow = { kind: 'oidc' as const, connection: c.id, state: oauth.generateRandomState(), nonce: oauth.generateRandomNonce(), verifier: oauth.generateRandomCodeVerifier() }
  const url = new URL(as.authorization_endpoint!)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('client_id', c.oidc!.clientId)
  url.searchParams.set('redirect_uri', serviceProvider(ctx, options, c).redirectUri)
  url.searchParams.set('scope', c.oidc!.scopes)
  url.searchParams.set('state', flow.state)
  url.searchParams.set('nonce', flow.nonce)
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(flow.verifier))
  url.searchParams.set('code_challenge_method', 'S256')
  if (loginHint) url.searchParams.set('login_hint', loginHint)
  await setFlow(ctx, flow)
  return redirect(ctx, url.href)
}

export async function oidcCallback(ctx: Context, options: Resolved): Promise<Reply> {
  const flow = await takeFlow(ctx)
  if (!flow || flow.kind !== 'oidc') throw signInRefused('no sign-in through an OIDC connection was started in this browser, or it took longer than 10 minutes')
  const c = await store(ctx).getSsoConnection(flow.connection)
  if (!c || c.kind !== 'oidc') throw signInRefused('the connection is gone')
  const as = await discoverIssuer(ctx, options, c.oidc!.issuer)
  const oidcClient = client(ctx, c)
  const secret = c.sealedSecret ? await unseal<string>(ctx.config.secrets, secretUse, c.sealedSecret) : null
  if (c.sealedSecret && !secret) throw signInRefused('the client secret cannot be opened with this server\'s secret')
  const auth = secret ? oauth.ClientSecretBasic(secret) : oauth.None()
  let claims: oauth.IDToken
  try {
    const params = oauth.validateAuthResponse(as, oidcClient, ctx.url.searchParams, flow.state)
    const response = await oauth.authorizationCodeGrantRequest(as, oidcClient, auth, params, serviceProvider(ctx, options, c).redirectUri, flow.verifier, requestOptions(options, as.token_endpoint!))
    const tokens = await oauth.processAuthorizationCodeResponse(as, oidcClient, response, { expectedNonce: flow.nonce, requireIdToken: true })
    claims = oauth.getValidatedIdTokenClaims(tokens)!
  } catch (error) {
    throw signInRefused(`the OIDC response did not pass its checks (${(error as Error).message})`)
  }
  const mapping = c.attributes
  return finishSignIn(ctx, options, c, {
    subject: String(claims.sub),
    email: claims[mapping.email],
    name: claims[mapping.name],
    groups: claims[mapping.groups],
    emailVerified: claims.email_verified === true,
  })
}
