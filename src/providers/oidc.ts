import type { OIDCConfig, OIDCUserConfig, Profile } from '../core/types.js'
import { discovery, mergeProvider, named, secretOptional, readsEnv, needs } from './lib/index.js'

/**
 * A generic OpenID Connect provider: give `id`, `name`, `issuer` (its metadata is discovered at
 * `<issuer>/.well-known/openid-configuration` unless `wellKnown` says otherwise), `clientId`
 * and, for a confidential client, `clientSecret`. Scope `openid profile email`, checks
 * ['pkce', 'nonce']; the user comes from the ID token (or from userinfo with `idToken: false`).
 */
export default function OIDC<P extends Profile = Profile>(
  options: OIDCUserConfig<P> & Pick<OIDCConfig<P>, 'id' | 'name'>,
): OIDCConfig<P> {
  named('OIDC', options)
  const provider = secretOptional(
    mergeProvider<OIDCConfig<P>>(
      {
        id: options.id,
        name: options.name,
        type: 'oidc',
        wellKnown: discovery(options.issuer),
        jwks_endpoint: undefined,
        authorization: { params: { scope: 'openid profile email' } },
      },
      options,
    ),
  )
  return readsEnv(provider, OIDC, needs('issuer'))
}
