import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { discovery, mergeProvider, standardUser, under, type StandardClaims, readsEnv, needs, svgLogo } from './lib/index.js'

/** Claims of an Okta authorization server (ID token / `/v1/userinfo`). */
export interface OktaProfile extends StandardClaims {
  ver?: number
  idp?: string
  amr?: string[]
  groups?: string[]
}

/**
 * Okta. Needs `issuer` (`https://<org>.okta.com` or `https://<org>.okta.com/oauth2/<server-id>`), `clientId`, `clientSecret`.
 * Tokens: a refresh token with the `offline_access` scope when the app's grant types include Refresh Token; rotation is a per-app setting.
 */
export default function Okta(options: OIDCUserConfig<OktaProfile> = {}): OIDCConfig<OktaProfile> {
  const provider = mergeProvider<OIDCConfig<OktaProfile>>(
    {
      id: 'okta',
      name: 'Okta',
      type: 'oidc',
      issuer: options.issuer,
      wellKnown: discovery(options.issuer),
      // Custom authorization servers (…/oauth2/<id>) serve /v1/keys; the org server /oauth2/v1/keys.
      jwks_endpoint: under(options.issuer, options.issuer?.includes('/oauth2/') ? '/v1/keys' : '/oauth2/v1/keys'),
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => standardUser(p),
      style: { brandColor: '#00297a', logo: svgLogo('<rect width="24" height="24" rx="6" fill="#00297a"/><circle cx="12" cy="12" r="5.6" fill="none" stroke="#fff" stroke-width="3.4"/>') },
    },
    options,
  )
  return readsEnv(provider, Okta, needs('issuer'))
}
