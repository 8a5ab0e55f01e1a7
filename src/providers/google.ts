import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv, svgLogo } from './lib/index.js'

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
      style: { brandColor: '#1a73e8', logo: svgLogo('<circle cx="12" cy="12" r="12" fill="#fff"/><g fill="none" stroke-width="3.4"><path stroke="#ea4335" d="M16.98 7.82A6.5 6.5 0 0 0 6.11 9.25"/><path stroke="#fbbc05" d="M6.11 9.25a6.5 6.5 0 0 0 0 5.5"/><path stroke="#34a853" d="M6.11 14.75a6.5 6.5 0 0 0 11.52.5"/><path stroke="#4285f4" d="M17.63 15.25A6.5 6.5 0 0 0 18.5 12H12"/></g>') },
    },
    options,
  )
  return readsEnv(provider, Google)
}
