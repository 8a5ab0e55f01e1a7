import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv } from './lib/index.js'

/** Claims of a Google ID token (https://developers.google.com/identity/openid-connect/openid-connect). */
export interface GoogleProfile extends StandardClaims {
  iss: string
  azp: string
  aud: string
  email: string
  email_verified: boolean
  at_hash?: string
  name: string
  picture: string
  given_name?: string
  family_name?: string
  locale?: string
  /** The Google Workspace domain of the user, when there is one. */
  hd?: string
  iat: number
  exp: number
}

/**
 * Google. Needs `clientId`, `clientSecret`.
 * Tokens: 1-hour access tokens; a refresh token only with `authorization: { params: { access_type: 'offline', prompt: 'consent' } }` (without `prompt`, only the first consent gives one); it does not rotate.
 */
export default function Google(options: OIDCUserConfig<GoogleProfile> = {}): OIDCConfig<GoogleProfile> {
  const provider = mergeProvider<OIDCConfig<GoogleProfile>>(
    {
      id: 'google',
      name: 'Google',
      type: 'oidc',
      issuer: 'https://accounts.google.com',
      wellKnown: 'https://accounts.google.com/.well-known/openid-configuration',
      jwks_endpoint: 'https://www.googleapis.com/oauth2/v3/certs',
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => ({ id: p.sub, name: p.name, email: p.email, image: p.picture }),
      style: { brandColor: '#1a73e8' },
    },
    options,
  )
  return readsEnv(provider, Google)
}
