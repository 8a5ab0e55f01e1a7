import type { OIDCConfig, OIDCUserConfig } from '../core/types.js'
import { mergeProvider, type StandardClaims, readsEnv } from './lib/index.js'

/** Claims of "Sign in with Hugging Face" (ID token / `/oauth/userinfo`). */
export interface HuggingFaceProfile extends StandardClaims {
  sub: string
  name: string
  preferred_username: string
  profile: string
  picture: string
  website?: string
  email?: string
  email_verified?: boolean
  isPro?: boolean
  canPay?: boolean
  orgs?: Array<{ sub: string; name: string; preferred_username: string; picture: string; isEnterprise?: boolean }>
}

/** Hugging Face. Needs `clientId`, `clientSecret` (of an OAuth app of the Hub). */
export default function HuggingFace(options: OIDCUserConfig<HuggingFaceProfile> = {}): OIDCConfig<HuggingFaceProfile> {
  const provider = mergeProvider<OIDCConfig<HuggingFaceProfile>>(
    {
      id: 'huggingface',
      name: 'Hugging Face',
      type: 'oidc',
      issuer: 'https://huggingface.co',
      wellKnown: 'https://huggingface.co/.well-known/openid-configuration',
      jwks_endpoint: undefined,
      authorization: { params: { scope: 'openid profile email' } },
      profile: (p) => ({ id: p.sub, name: p.name ?? p.preferred_username, email: p.email ?? null, image: p.picture }),
      style: { brandColor: '#ffd21e' },
    },
    options,
  )
  return readsEnv(provider, HuggingFace)
}
