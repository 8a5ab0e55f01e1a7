import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, type StandardClaims, readsEnv, takes } from './lib/index.js'

/** Claims of BankID with OpenID Connect (Norway): ID token / userinfo. */
export interface BankIDNorwayProfile extends StandardClaims {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  birthdate?: string
  email?: string
  phone_number?: string
  /** The Norwegian national identity number, with scope `nnin`. */
  nnin?: string
  bankid_altsub?: string
}

/**
 * BankID Norway. Needs `clientId`, `clientSecret`; `issuer` for the test environment
 * (`https://auth.current.bankid.no/auth/realms/current`).
 */
export default function BankIDNorway(options: OIDCUserConfig<BankIDNorwayProfile> = {}): OIDCConfig<BankIDNorwayProfile> {
  const issuer = options.issuer ?? 'https://auth.bankid.no/auth/realms/prod'
  const provider = mergeProvider<OIDCConfig<BankIDNorwayProfile>>(
    {
      id: 'bankid-no',
      name: 'BankID Norge',
      type: 'oidc',
      issuer,
      wellKnown: discovery(issuer),
      jwks_endpoint: undefined,
      authorization: { params: { scope: 'openid profile' } },
      idToken: false,
      checks: ['pkce', 'state', 'nonce'],
      profile: (p) => ({ id: p.sub, name: p.name ?? null, email: p.email ?? null, image: null }),
      style: { brandColor: '#39134c' },
    },
    options,
  )
  return readsEnv(provider, BankIDNorway, takes('issuer'))
}
