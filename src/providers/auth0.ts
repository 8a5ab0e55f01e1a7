import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, under, type StandardClaims, readsEnv, needs, svgLogo } from './lib/index.js'

/** Auth0's normalized user profile claims (ID token / `/userinfo`). */
export interface Auth0Profile extends StandardClaims {
  nickname: string
  name: string
  picture: string
  updated_at: string
  email_verified?: boolean
  org_id?: string
}

/**
 * Auth0 tenant. Needs `issuer` (`https://<tenant>.<region>.auth0.com` or a custom domain), `clientId`, `clientSecret`.
 * Tokens: a refresh token with the `offline_access` scope when the API allows offline access; rotation is a per-application setting.
 */
export default function Auth0(options: OIDCUserConfig<Auth0Profile> = {}): OIDCConfig<Auth0Profile> {
  const provider = mergeProvider<OIDCConfig<Auth0Profile>>(
    {
      id: 'auth0',
      name: 'Auth0',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      jwks_endpoint: under(options.issuer, '/.well-known/jwks.json'),
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => ({ id: p.sub, name: p.name ?? p.nickname, email: p.email ?? null, image: p.picture ?? null }),
      style: { brandColor: '#eb5424', logo: svgLogo('<rect width="24" height="24" rx="6" fill="#eb5424"/><path fill="#fff" d="M12 4.6l2 5.25 5.6.25-4.4 3.55 1.5 5.45-4.7-3.1-4.7 3.1 1.5-5.45-4.4-3.55 5.6-.25z"/>') },
    },
    options,
  )
  return readsEnv(provider, Auth0, needs('issuer'))
}
