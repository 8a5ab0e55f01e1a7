/**
 * What every route reads of the instance: the options (set by `configure`), the issuer (the
 * configured origin, never a request's Host), the endpoints' URLs under it, and the store.
 */
import { instanceKey, useAdapter, type Adapter, type ResolvedConfig } from 'latchkey/server'
import type { ResolvedOAuthServer } from './options.js'
import { oauthServerSchema, type OAuthServerStore } from './store.js'

export const serverOptions = instanceKey<ResolvedOAuthServer>('oauth-server options')

/** The issuer: the first configured origin (`origin` or AUTH_URL); `configure` refuses an instance without one. */
export const issuerOf = (config: ResolvedConfig): string => config.originRule.first!

/** The URL of an endpoint under basePath: `<issuer><basePath>/oauth2/<name>`. */
export const endpoint = (config: ResolvedConfig, name: string): string => `${issuerOf(config)}${config.basePath}/oauth2/${name}`

/** Every store method the plugin calls: the schema's, and the kernel's one-time tokens (the codes). */
export const storeMethods = [...Object.keys(oauthServerSchema.memory()), 'createVerificationToken', 'useVerificationToken']

export type Store = OAuthServerStore & Required<Pick<Adapter, 'createVerificationToken' | 'useVerificationToken'>>

export const oauthStore = (config: ResolvedConfig): Store => useAdapter<Store>(config, storeMethods as Array<keyof Store & string>, 'The authorization server')
