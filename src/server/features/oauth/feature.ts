/** OAuth 2 and OpenID Connect: the browser goes to the provider and comes back to /callback. */
import type { OAuthConfig } from '../../../core/types.js'
import type { Feature } from '../../kernel/feature.js'
import { resolveCallbackUrl } from '../../kernel/redirect-url.js'
import { redirect } from '../../kernel/respond.js'
import { withSignInNotice } from '../../sign-in/first-proof.js'
import { handleOAuthCallback } from './callback.js'
import { knownAuthorizationUrls } from './server.js'
import { startOAuth } from './start.js'

export const oauth: Feature = {
  name: 'oauth',
  method: {
    types: ['oauth', 'oidc'],
    leavesSite: true,
    start: async (ctx, provider) => redirect(ctx, await startOAuth(ctx, provider as OAuthConfig<any>)),
    // A response from the handler means "go elsewhere first" (form_post bounce, redirect proxy forward).
    callback: async (ctx, provider, body) =>
      (await handleOAuthCallback(ctx, provider as OAuthConfig<any>, body)) ?? redirect(ctx, withSignInNotice(ctx, await resolveCallbackUrl(ctx, undefined))),
    formTargets(provider) {
      const p = provider as OAuthConfig<any>
      return p.redirectProxyUrl ? [...knownAuthorizationUrls(p), p.redirectProxyUrl] : knownAuthorizationUrls(p)
    },
  },
}
