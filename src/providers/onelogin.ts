import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, standardUser, under, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of a OneLogin OpenID Connect app (ID token / `/oidc/2/me`). */
export interface OneLoginProfile extends StandardClaims {
  preferred_username: string
  groups?: string[]
  params?: Record<string, unknown>
}

/** OneLogin. Needs `issuer` (`https://<subdomain>.onelogin.com/oidc/2`), `clientId`, `clientSecret`. */
export default function OneLogin(options: OIDCUserConfig<OneLoginProfile> = {}): OIDCConfig<OneLoginProfile> {
  const provider = mergeProvider<OIDCConfig<OneLoginProfile>>(
    {
      id: 'onelogin',
      name: 'OneLogin',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: under(options.issuer, '/certs'),
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => standardUser(p),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, OneLogin, needs('issuer'))
}
