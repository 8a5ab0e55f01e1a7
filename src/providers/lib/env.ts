/**
 * The settings a built-in provider takes from the environment, as Auth.js names them:
 * `AUTH_<ID>_ID` and `AUTH_<ID>_SECRET` for every OAuth provider, and those it declares here
 * (`AUTH_<ID>_ISSUER` for an issuer). `Latchkey(config)` reads them as it starts, not the
 * provider as it is built, so a provider built before the environment is read (or with none, as
 * `providers: [Keycloak()]` in a module) still starts; the server then builds the provider again
 * with them (src/server/features/oauth/required-fields.ts), so that what it derives from them
 * (the issuer's endpoints, a client id sent in a URL) is as if they had been passed.
 */
import { configurationError } from '../../core/errors.js'
import type { OAuthConfig } from '../../core/types.js'
import { secretNeeded } from './client-secret.js'

/** An option a provider may take from the environment. */
export interface EnvSetting {
  /** The option, as passed to the provider: `issuer`. */
  option: string
  /** The variable: `AUTH_<ID>_` and this (`ISSUER`). */
  variable: string
  /** True when the provider has no default: `Latchkey(config)` refuses to start without it. */
  required: boolean
}

/** How the server builds a built-in provider again: its function and the settings it declared. */
export interface EnvRecipe {
  build: (options: any) => OAuthConfig<any>
  settings: readonly EnvSetting[]
}

const recipe = Symbol.for('latchkey.envRecipe')

/** The variable of each option a provider may declare; Auth.js's names where it has one. */
const variables = { issuer: 'ISSUER', apiKey: 'KEY', accountID: 'ACCOUNT_ID', tenantId: 'TENANT_ID' } as const

type Declarable = keyof typeof variables

/** A setting the provider cannot do without. */
export const needs = (option: Declarable): EnvSetting => ({ option, variable: variables[option], required: true })

/** A setting with a default the environment may replace. */
export const takes = (option: Declarable): EnvSetting => ({ option, variable: variables[option], required: false })

/**
 * Marks `provider` as built by `build` (its module's default export) and taking `settings` from
 * the environment. The mark is not enumerable: a copy (`{ ...GitHub(), name: 'Code' }`) holds
 * what the app changed, which building again would lose, so it is filled field by field instead.
 */
export function readsEnv<C extends OAuthConfig<any>>(provider: C, build: (options: any) => C, ...settings: EnvSetting[]): C {
  Object.defineProperty(provider, recipe, { value: { build, settings } satisfies EnvRecipe, enumerable: false, configurable: true })
  return provider
}

/** The mark `readsEnv` left, if this very object has it. */
export function envRecipe(provider: object): EnvRecipe | undefined {
  return (provider as { [recipe]?: EnvRecipe })[recipe]
}

/** `AUTH_<ID>`: the id in capitals, `-` as `_` (`AUTH_MICROSOFT_ENTRA_ID`). */
export function envPrefix(id: string): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, '_')}`
}

/**
 * Every setting the provider takes from the environment: clientId and clientSecret (required
 * unless the provider may be a public client), then the others.
 */
export function envSettings(provider: OAuthConfig<any>): EnvSetting[] {
  return [
    { option: 'clientId', variable: 'ID', required: true },
    { option: 'clientSecret', variable: 'SECRET', required: secretNeeded(provider) },
    ...declaredSettings(provider),
  ]
}

/** The settings beyond the client's: those the provider declared, else an OpenID Connect one's issuer. */
export function declaredSettings(provider: OAuthConfig<any>): readonly EnvSetting[] {
  return envRecipe(provider)?.settings ?? (provider.type === 'oidc' ? [needs('issuer')] : [])
}

/**
 * A generic provider (`OAuth`, `OIDC`) has no id of its own, and no variable can give one: it
 * refuses to be built without, rather than fail later on `undefined`.
 */
export function named(generic: 'OAuth' | 'OIDC', options: { id?: unknown } | undefined): void {
  if (typeof options?.id === 'string' && options.id) return
  const example = generic === 'OIDC' ? "{ id: 'corp', name: 'Corp', issuer }" : "{ id: 'corp', name: 'Corp', authorization, token, userinfo }"
  throw configurationError(`latchkey: the generic ${generic} provider needs an id (and a name): pass ${generic}(${example}); its clientId and clientSecret may come from AUTH_<ID>_ID and AUTH_<ID>_SECRET`)
}
