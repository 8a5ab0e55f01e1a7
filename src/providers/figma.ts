import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv } from './lib/index.js'

/** Figma's current user (GET /v1/me). */
export interface FigmaProfile {
  id: string
  email: string
  handle: string
  img_url: string
  [key: string]: unknown
}

/** Figma. Needs `clientId`, `clientSecret`; scope `current_user:read`. */
export default function Figma(options: OAuthUserConfig<FigmaProfile> = {}): OAuthConfig<FigmaProfile> {
  const provider = mergeProvider<OAuthConfig<FigmaProfile>>(
    {
      id: 'figma',
      name: 'Figma',
      type: 'oauth',
      authorization: { url: 'https://www.figma.com/oauth', params: { scope: 'current_user:read' } },
      token: 'https://api.figma.com/v1/oauth/token',
      userinfo: 'https://api.figma.com/v1/me',
      checks: ['state'],
      client: { token_endpoint_auth_method: 'client_secret_basic' },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.id, name: p.handle, email: p.email, image: p.img_url }),
      style: { brandColor: '#0d0d0d' },
    },
    options,
  )
  return readsEnv(provider, Figma)
}
