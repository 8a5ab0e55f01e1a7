import type { OAuthConfig, OAuthUserConfig } from '../core/types.js'
import { mergeProvider, readsEnv, svgLogo } from './lib/index.js'

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
      style: { brandColor: '#0d0d0d', logo: svgLogo('<path fill="#f24e1e" d="M12 3H9a3 3 0 0 0 0 6h3z"/><path fill="#ff7262" d="M12 3h3a3 3 0 0 1 0 6h-3z"/><path fill="#a259ff" d="M12 9H9a3 3 0 0 0 0 6h3z"/><circle cx="15" cy="12" r="3" fill="#1abcfe"/><path fill="#0acf83" d="M12 15H9a3 3 0 1 0 3 3z"/>') },
    },
    options,
  )
  return readsEnv(provider, Figma)
}
