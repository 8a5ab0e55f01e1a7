import type { OAuth2Config, OAuthUserConfig, Profile } from '../core/types.js'
import { mergeProvider, named, secretOptional, readsEnv } from './lib/index.js'

/**
 * A generic OAuth 2 provider, for a service without a built-in module. Give `id`, `name`, the
 * endpoints (`authorization`, `token`, `userinfo`, or `wellKnown`), `clientId` and usually
 * `clientSecret`. Checks default to ['pkce']; the user comes from the userinfo answer through
 * `profile` (default: `id` or `sub`, `email`, `name`, `picture`/`image`).
 */
export default function OAuth<P extends Profile = Profile>(
  options: OAuthUserConfig<P> & Pick<OAuth2Config<P>, 'id' | 'name'>,
): OAuth2Config<P> {
  named('OAuth', options)
  const provider = secretOptional(mergeProvider<OAuth2Config<P>>({ id: options.id, name: options.name, type: 'oauth', jwks_endpoint: undefined }, options))
  return readsEnv(provider, OAuth)
}
