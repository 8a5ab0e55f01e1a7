import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv } from './lib/index.js'

/** Claims of a LINE Login v2.1 ID token (https://developers.line.biz/en/docs/line-login/verify-id-token/). */
export interface LineProfile extends StandardClaims {
  iss: 'https://access.line.me'
  sub: string
  aud: string
  exp: number
  iat: number
  amr: string[]
  name?: string
  picture?: string
  /** Present with the `email` scope and the permission granted to the channel. */
  email?: string
}

/** LINE Login. Needs `clientId` (the channel id), `clientSecret` (the channel secret). ID tokens are HS256. */
export default function Line(options: OIDCUserConfig<LineProfile> = {}): OIDCConfig<LineProfile> {
  const provider = mergeProvider<OIDCConfig<LineProfile>>(
    {
      id: 'line',
      name: 'LINE',
      type: 'oidc',
      issuer: 'https://access.line.me',
      wellKnown: 'https://access.line.me/.well-known/openid-configuration',
      jwks_endpoint: 'https://api.line.me/oauth2/v2.1/certs',
      authorization: { params: { scope: 'openid profile' } },
      client: { id_token_signed_response_alg: 'HS256' },
      profile: (p) => ({ id: p.sub, name: p.name ?? null, email: p.email ?? null, image: p.picture ?? null }),
      style: { brandColor: '#00c300' },
    },
    options,
  )
  return readsEnv(provider, Line)
}
