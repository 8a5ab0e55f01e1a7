/**
 * GET or POST /callback/:oauth-provider: checks the authorization response, exchanges the code,
 * validates the ID token, reads the profile and ends in `completeSignIn`.
 *
 * `response_mode=form_post`: the provider's page POSTs the response cross-site, and the check
 * (and session) cookies are SameSite=Lax, so that POST arrives without them. latchkey answers
 * such a POST with a 303 to this same callback with the parameters in the query string. The
 * browser follows it as a top-level GET, which does carry Lax cookies, and the GET does the
 * work. The code is single-use and bound to the PKCE verifier, and the GET answers with a
 * redirect, so no page ever shows it.
 *
 * Whatever the outcome, the check cookies are cleared once read; a failure creates no user,
 * account or session (nothing is written before every check has passed).
 */
import * as oauth from 'oauth4webapi'
import type { OAuthConfig, Profile } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import type { Body } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { reply, type Reply } from '../../kernel/respond.js'
import { answerDue, completeSignIn } from '../../sign-in/complete.js'
import { checksOf, clearChecks, readCheck } from './checks.js'
import { makeClient, requestOptions } from './client.js'
import { oauthError } from './errors.js'
import { accountFrom, userFrom } from './profile.js'
import { forwardTarget, ownCallbackUrl, redirectUri } from './redirect-proxy.js'
import { providerServer, type ProviderServer } from './server.js'
import { forResponseIssuer } from './tenants.js'
import { exchangeCode } from './tokens.js'
import { fetchUserinfo } from './userinfo.js'

/** Parameters an authorization response may carry (RFC 6749 4.1.2, RFC 9207, OIDC session management). */
const responseParams = ['code', 'state', 'iss', 'error', 'error_description', 'error_uri', 'session_state']

/** Finishes the sign-in; returns a response only when the browser must first go elsewhere (or a step is due). */
export async function handleOAuthCallback(ctx: Context, provider: OAuthConfig<any>, body: Body): Promise<Reply | undefined> {
  if (ctx.request.method === 'POST') return bounceFormPost(ctx, provider, body)

  const params = new URLSearchParams(ctx.url.searchParams)
  const forward = await forwardTarget(ctx, provider, params.get('state'))
  if (forward) {
    forward.search = params.toString()
    return seeOther(ctx, forward.href, 302)
  }

  clearChecks(ctx)
  const checks = checksOf(ctx, provider)
  const codeVerifier = checks.has('pkce') ? await readCheck(ctx, provider, 'pkce') : undefined
  const state = checks.has('state') ? await readCheck(ctx, provider, 'state') : undefined
  const nonce = checks.has('nonce') ? await readCheck(ctx, provider, 'nonce') : undefined

  const client = makeClient(ctx, provider)
  let server: ProviderServer
  try {
    server = await providerServer(provider)
  } catch (error) {
    throw asCallbackError(oauthError(error, 'callback', 'discovery', provider.id))
  }
  // Without a known issuer there is nothing to hold an `iss` parameter against.
  if (!server.issuerKnown) params.delete('iss')
  // Under a multi-tenant template the response's `iss` names the tenant; the rest of the flow holds to it.
  const as = forResponseIssuer(server.as, params.get('iss'))
  const options = requestOptions([as.authorization_endpoint, as.token_endpoint, as.userinfo_endpoint, as.jwks_uri])

  let callback: URLSearchParams
  try {
    callback = oauth.validateAuthResponse(as, client.client, params, state ?? oauth.expectNoState)
  } catch (error) {
    throw oauthError(error, 'callback', 'authorization response', provider.id)
  }

  const { tokens, claims } = await exchangeCode(provider, {
    as,
    client,
    options,
    callback,
    redirectUri: redirectUri(ctx, provider),
    codeVerifier,
    nonce,
    state,
  })
  if (tokens.session_state === undefined && params.get('session_state')) tokens.session_state = params.get('session_state')!

  const fromIdToken = provider.type === 'oidc' && provider.idToken !== false
  const profile: Profile = fromIdToken
    ? ({ ...claims } as Profile)
    : await fetchUserinfo(provider, { as, client, options, tokens, subject: claims?.sub })

  const user = await userFrom(provider, profile, tokens)
  const account = accountFrom(provider, tokens, user.id, ctx.now)
  const done = await completeSignIn(ctx, {
    user,
    account,
    profile,
    allowDangerousEmailAccountLinking: provider.allowDangerousEmailAccountLinking === true,
  })
  return answerDue(ctx, done)
}

/** form_post: 303 to the GET callback with the response parameters, so the Lax cookies come along. */
function bounceFormPost(ctx: Context, provider: OAuthConfig<any>, body: Body): Reply {
  const query = new URLSearchParams()
  for (const name of responseParams) {
    const value = body[name]
    if (typeof value === 'string') query.set(name, value)
  }
  if (!query.has('code') && !query.has('error')) {
    throw new AuthError('InvalidRequest', `Provider "${provider.id}": expected a form_post authorization response with code or error, got neither`)
  }
  return seeOther(ctx, `${ownCallbackUrl(ctx, provider)}?${query}`, 303)
}

/** A redirect that sets no cookie: the bounce and the proxy's forward must leave the check cookies alone. */
function seeOther(ctx: Context, location: string, status: 302 | 303): Reply {
  return reply(status, { ...ctx.headers, location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
}

function asCallbackError(error: AuthError): AuthError {
  if (error.type !== 'OAuthSignInError') return error
  return new AuthError('OAuthCallbackError', error.message, { cause: error.cause, status: error.status })
}
