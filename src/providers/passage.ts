import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, type StandardClaims, readsEnv, needs } from './lib/index.js'

/** Claims of a Passage (by 1Password) app: a passwordless identity, so no name or picture. */
export interface PassageProfile extends StandardClaims {
  email: string
  email_verified: boolean
  phone_number?: string
  phone_number_verified?: boolean
}

/** Passage by 1Password. Needs `issuer` (`https://<app-id>.withpassage.com`), `clientId`, `clientSecret`. */
export default function Passage(options: OIDCUserConfig<PassageProfile> = {}): OIDCConfig<PassageProfile> {
  const provider = mergeProvider<OIDCConfig<PassageProfile>>(
    {
      id: 'passage',
      name: 'Passage',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: undefined,
      authorization: { params: { scope: 'openid email' } },
      client: { token_endpoint_auth_method: 'client_secret_basic' },
      profile: (p) => ({ id: p.sub, name: null, email: p.email, image: null }),
      style: { brandColor: '#000000' },
    },
    options,
  )
  return readsEnv(provider, Passage, needs('issuer'))
}
