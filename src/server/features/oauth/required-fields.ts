/**
 * An OAuth or OIDC provider's client fields, filled from the environment as Auth.js does and
 * checked when `Latchkey(config)` starts: a missing clientId would otherwise surface only at the
 * first sign-in, as `/error?error=Configuration`.
 */
import type { OAuthConfig } from '../../../core/types.js'
import { configurationError } from '../../../core/errors.js'
import { needsClientSecret } from '../../../providers/lib/client-secret.js'
import { endpointUrl } from './endpoints.js'

type Env = Record<string, string | undefined>

/**
 * The provider with `clientId`, `clientSecret` and (OIDC) `issuer` taken from `AUTH_<ID>_ID`,
 * `AUTH_<ID>_SECRET` and `AUTH_<ID>_ISSUER` where the configuration leaves them out; throws
 * `Configuration`, naming the field and the variable, when a required one is still missing.
 */
export function withRequiredFields(provider: OAuthConfig<any>, env: Env): OAuthConfig<any> {
  const prefix = `AUTH_${provider.id.toUpperCase().replace(/-/g, '_')}`
  const filled = { ...provider }
  filled.clientId ??= env[`${prefix}_ID`] || undefined
  filled.clientSecret ??= env[`${prefix}_SECRET`] || undefined
  if (filled.type === 'oidc') filled.issuer ??= env[`${prefix}_ISSUER`] || undefined
  const missing = (field: string, variable?: string) =>
    configurationError(`latchkey: provider "${provider.id}" has no ${field}: pass { ${field} } in its options${variable ? `, or set ${prefix}_${variable}` : ''}`)

  const client = filled.client ?? {}
  if (!(client.client_id ?? filled.clientId)) throw missing('clientId', 'ID')
  if (needsSecret(filled) && !(client.client_secret ?? filled.clientSecret)) throw missing('clientSecret', 'SECRET')
  if (!filled.issuer && !filled.wellKnown && !endpointUrl(filled.authorization)) {
    if (filled.type === 'oidc') throw missing('issuer', 'ISSUER')
    throw configurationError(`latchkey: provider "${provider.id}" has no issuer and no authorization endpoint: pass { issuer } (or { authorization, token }) in its options`)
  }
  return filled
}

/**
 * The client authentication decides: `none` and `private_key_jwt` need no secret, the
 * `client_secret_*` methods do; left unset, a built-in provider for a service without public
 * clients needs one, and a generic or hand-written provider is a public client without one.
 */
function needsSecret(provider: OAuthConfig<any>): boolean {
  const method = provider.client?.token_endpoint_auth_method
  if (typeof method === 'string') return method.startsWith('client_secret_')
  return (provider as { [needsClientSecret]?: boolean })[needsClientSecret] === true
}
