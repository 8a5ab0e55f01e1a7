import type { OAuthConfig, OAuthUserConfig, Profile } from '../core/types.js'
import { endpointUrl, fetchJson, mergeProvider, readsEnv } from './lib/index.js'

/** Dropbox's current account (POST /2/users/get_current_account). */
export interface DropboxProfile {
  account_id: string
  name: { display_name: string; given_name: string; surname: string; familiar_name: string; abbreviated_name: string }
  email: string
  email_verified: boolean
  disabled: boolean
  profile_photo_url?: string
  country?: string
  locale?: string
  referral_link?: string
  is_paired?: boolean
  account_type?: { '.tag': string }
  [key: string]: unknown
}

/**
 * Dropbox. Needs `clientId` (the app key), `clientSecret` (the app secret); scope `account_info.read`.
 * Tokens: 4-hour access tokens; a refresh token only with `authorization: { params: { token_access_type: 'offline' } }`.
 */
export default function Dropbox(options: OAuthUserConfig<DropboxProfile> = {}): OAuthConfig<DropboxProfile> {
  const url = 'https://api.dropboxapi.com/2/users/get_current_account'
  const provider = mergeProvider<OAuthConfig<DropboxProfile>>(
    {
      id: 'dropbox',
      name: 'Dropbox',
      type: 'oauth',
      authorization: {
        url: 'https://www.dropbox.com/oauth2/authorize',
        params: { token_access_type: 'offline', scope: 'account_info.read' },
      },
      token: 'https://api.dropboxapi.com/oauth2/token',
      userinfo: {
        url,
        // An RPC endpoint: POST with no body.
        async request({ tokens, provider }) {
          return (await fetchJson('Dropbox', endpointUrl(provider.userinfo, url), {
            method: 'POST',
            headers: { Authorization: `Bearer ${tokens.access_token}` },
          })) as Profile
        },
      },
      jwks_endpoint: undefined,
      profile: (p) => ({ id: p.account_id, name: p.name.display_name, email: p.email, image: p.profile_photo_url ?? null }),
      style: { brandColor: '#0061fe' },
    },
    options,
  )
  return readsEnv(provider, Dropbox)
}
