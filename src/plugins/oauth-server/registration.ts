/**
 * Dynamic client registration (RFC 7591), off unless `registration` says: POST /oauth2/register
 * with the client's metadata as JSON answers 201 with its new `client_id` (and, for a
 * confidential client, a `client_secret` shown once and kept only as its SHA-256). Open to anyone,
 * or only to holders of the initial access token; counted per network address either way.
 */
import { enforceRateLimit, json, randomToken, readBody, timingSafeEqual, type Context, type Reply } from 'latchkey/server'
import { checkMetadata, resolvedFrom } from './client-metadata.js'
import { asOAuth, OAuthError } from './errors.js'
import { oauthStore, serverOptions } from './instance.js'
import { secretHash, type ResolvedRegistration } from './client-options.js'

/** Registered clients' ids start so: a lookup of any other id never reaches the store. */
export const registeredPrefix = 'lkc_'

const closed = () => new OAuthError('access_denied', 'Dynamic client registration is off on this server: its operator configures clients (or set registration in oauthServer)', 403)

function checkAccess(ctx: Context, registration: ResolvedRegistration): void {
  if (registration.tokenHash === undefined) return
  const match = /^Bearer +(\S+) *$/i.exec(ctx.incoming.header('authorization') ?? '')
  if (!match || !timingSafeEqual(secretHash(match[1]!), registration.tokenHash)) {
    ctx.headers['www-authenticate'] = 'Bearer error="invalid_token"'
    throw new OAuthError('invalid_token', 'Registration needs the initial access token: Authorization: Bearer <token>', 401)
  }
}

/** POST /oauth2/register */
export function register(ctx: Context): Promise<Reply> {
  return asOAuth(ctx, async () => {
    const options = serverOptions.get(ctx.config)
    if (!options.registration) throw closed()
    checkAccess(ctx, options.registration)
    await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'oauthRegistration', null, ctx.now)
    if ((ctx.request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json') {
      throw new OAuthError('invalid_client_metadata', 'Send the client metadata as application/json (RFC 7591 §3.1)')
    }
    const metadata = await readBody(ctx.request, ctx.config.maxBodySize)
    if ('software_statement' in metadata) throw new OAuthError('invalid_software_statement', 'Software statements are not accepted')
    const checked = checkMetadata(metadata, Object.keys(options.scopes), ['none', 'client_secret_basic', 'client_secret_post'])
    const clientId = `${registeredPrefix}${randomToken(18)}`
    const secret = checked.authMethod === 'none' ? undefined : randomToken(32)
    const issuedAt = Math.floor(ctx.now / 1000)
    const answer: Record<string, unknown> = {
      client_id: clientId,
      client_id_issued_at: issuedAt,
      redirect_uris: checked.redirectUris,
      token_endpoint_auth_method: checked.authMethod,
      grant_types: checked.grantTypes,
      response_types: ['code'],
      scope: checked.scopes.join(' '),
      ...(checked.name !== undefined ? { client_name: checked.name } : {}),
      ...(checked.logoUri !== undefined ? { logo_uri: checked.logoUri } : {}),
      ...(checked.clientUri !== undefined ? { client_uri: checked.clientUri } : {}),
    }
    // The name is the client's own claim, unchecked: the consent page says so beside it.
    const client = resolvedFrom(clientId, checked, `${checked.name ?? 'An unnamed app'} (unverified)`, secret === undefined ? undefined : secretHash(secret))
    await oauthStore(ctx.config).createOAuthClient({ client, metadata: answer, createdAt: new Date(ctx.now) })
    ctx.config.logger.debug(`OAuth client ${clientId} registered`)
    return json(ctx, secret === undefined ? answer : { ...answer, client_secret: secret, client_secret_expires_at: 0 }, 201)
  })
}
