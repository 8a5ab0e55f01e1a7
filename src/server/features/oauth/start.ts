/**
 * POST /signin/:oauth-provider: builds the authorization URL and sets the check cookies.
 *
 * Parameters, later ones winning: the defaults (`response_type=code`, `client_id`,
 * `redirect_uri`, and for `oidc` `scope=openid profile email`), then `authorization.params`,
 * then the query string of the sign-in request (so an app can pass `login_hint` or `prompt`
 * per sign-in). Parameters that carry the checks or the client's identity cannot come from the
 * query string; `max_age` neither, as the callback must know it: set it in `authorization.params`.
 */
import * as oauth from 'oauth4webapi'
import type { OAuthConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import type { Context } from '../../kernel/context.js'
import { checksOf, setCheck } from './checks.js'
import { makeClient } from './client.js'
import { oauthError } from './errors.js'
import { makeProxyState, redirectProxyUrl, redirectUri } from './redirect-proxy.js'
import { providerServer } from './server.js'

/** Not settable from the sign-in request's query string. */
const reserved = new Set([
  'client_id',
  'client_secret',
  'redirect_uri',
  'response_type',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'max_age',
  'request',
  'request_uri',
  'csrfToken',
  'callbackUrl',
])

export async function startOAuth(ctx: Context, provider: OAuthConfig<any>): Promise<string> {
  const { client } = makeClient(ctx, provider)
  let server
  try {
    server = await providerServer(provider)
  } catch (error) {
    throw oauthError(error, 'signin', 'discovery', provider.id)
  }
  const endpoint = server.as.authorization_endpoint
  if (!endpoint) throw new AuthError('Configuration', `Provider "${provider.id}": expected an authorization endpoint, got none`, { status: 500 })
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    throw new AuthError('Configuration', `Provider "${provider.id}": expected the authorization endpoint to be an absolute URL, got ${JSON.stringify(endpoint)}`, { status: 500 })
  }

  const params = url.searchParams
  params.set('response_type', 'code')
  params.set('client_id', client.client_id)
  params.set('redirect_uri', redirectUri(ctx, provider))
  if (provider.type === 'oidc') params.set('scope', 'openid profile email')
  const configured = typeof provider.authorization === 'object' ? provider.authorization.params : undefined
  for (const [key, value] of Object.entries(configured ?? {})) {
    if (value !== undefined) params.set(key, String(value))
  }
  for (const [key, value] of ctx.url.searchParams) {
    if (!reserved.has(key)) params.set(key, value)
  }

  const checks = checksOf(ctx, provider)
  if (checks.has('pkce')) {
    const verifier = oauth.generateRandomCodeVerifier()
    params.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier))
    params.set('code_challenge_method', 'S256')
    await setCheck(ctx, provider, 'pkce', verifier)
  }
  if (checks.has('state')) {
    const state = redirectProxyUrl(ctx, provider) ? await makeProxyState(ctx, provider) : oauth.generateRandomState()
    params.set('state', state)
    await setCheck(ctx, provider, 'state', state)
  }
  if (checks.has('nonce')) {
    const nonce = oauth.generateRandomNonce()
    params.set('nonce', nonce)
    await setCheck(ctx, provider, 'nonce', nonce)
  }
  return url.href
}
