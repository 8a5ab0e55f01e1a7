/**
 * An OAuth or OIDC provider's settings, filled from the environment as Auth.js does and
 * checked when `Latchkey(config)` starts: a missing clientId would otherwise surface only at the
 * first sign-in, as `/error?error=Configuration`.
 */
import type { OAuthConfig } from '../../../core/types.js'
import { configurationError } from '../../../core/errors.js'
import { secretNeeded } from '../../../providers/lib/client-secret.js'
import { declaredSettings, envPrefix, envRecipe, envSettings } from '../../../providers/lib/env.js'
import { endpointUrl } from './endpoints.js'

type Env = Record<string, string | undefined>

const missing = (value: unknown) => value === undefined || value === null || value === ''

/**
 * The provider with each setting it takes from the environment (`AUTH_<ID>_ID`,
 * `AUTH_<ID>_SECRET`, and those src/providers/lib/env.ts lists for it) read where the
 * configuration leaves it out; throws `Configuration`, naming the option and the variable, when
 * a required one is still missing. A built-in provider is built again with what was read, so
 * that what it derives from it follows; any other is filled field by field.
 */
export function withRequiredFields(provider: OAuthConfig<any>, env: Env): OAuthConfig<any> {
  const prefix = envPrefix(provider.id)
  const settings = envSettings(provider)
  const recipe = envRecipe(provider)
  const given: Record<string, unknown> = recipe ? { ...provider.options } : { ...provider }
  const read: Record<string, string> = {}
  // Only where the option is left out: under Deno's --allow-env=<names>, reading another name throws.
  for (const { option, variable } of settings) {
    const value = missing(given[option]) ? env[`${prefix}_${variable}`] : undefined
    if (value) read[option] = value
  }
  const options = { ...given, ...read }
  const filled: OAuthConfig<any> = recipe && Object.keys(read).length ? { ...recipe.build(options) } : { ...provider, ...read }

  const refuse = (option: string, variable?: string) =>
    configurationError(`latchkey: provider "${provider.id}" has no ${option}: pass { ${option} } in its options${variable ? `, or set ${prefix}_${variable}` : ''}`)
  const client = filled.client ?? {}
  if (!(client.client_id ?? filled.clientId)) throw refuse('clientId', 'ID')
  if (secretNeeded(filled) && !(client.client_secret ?? filled.clientSecret)) throw refuse('clientSecret', 'SECRET')
  const declared = declaredSettings(provider)
  for (const { option, variable, required } of declared) {
    if (required && option !== 'issuer' && missing(options[option])) throw refuse(option, variable)
  }
  // An issuer is there to find the endpoints: named endpoints or a discovery URL do without it.
  if (!filled.issuer && !filled.wellKnown && !endpointUrl(filled.authorization)) {
    const issuer = declared.find((s) => s.option === 'issuer')
    if (issuer) throw refuse('issuer', issuer.variable)
    throw configurationError(`latchkey: provider "${provider.id}" has no issuer and no authorization endpoint: pass { issuer } (or { authorization, token }) in its options`)
  }
  return filled
}
