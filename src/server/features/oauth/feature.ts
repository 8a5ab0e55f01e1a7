/**
 * OAuth 2 and OpenID Connect: the browser goes to the provider and comes back to /callback.
 * Only what start-up and every page need is imported here; the flow itself (with oauth4webapi)
 * loads on the first sign-in, so an instance without OAuth providers never loads it.
 */
import type { OAuthConfig } from '../../../core/types.js'
import { lazy } from '../../kernel/lazy.js'
import { usedByProvidersOf, type LatchkeyPlugin } from '../../kernel/plugin.js'
import { resolveCallbackUrl } from '../../kernel/redirect-url.js'
import { redirect } from '../../kernel/respond.js'
import { withSignInNotice } from '../../sign-in/first-proof.js'
import { checkCookies } from './check-cookies.js'
import { knownAuthorizationUrls } from './endpoints.js'
import { withRequiredFields } from './required-fields.js'

const starting = lazy(() => import('./start.js'))
const returning = lazy(() => import('./callback.js'))

export const oauth: LatchkeyPlugin = {
  id: 'oauth',
  // A check cookie that does not match, a provider that refused or could not be reached.
  errorCodes: ['InvalidCheck', 'OAuthSignInError'],
  uses: usedByProvidersOf('oauth', 'oidc'),
  cookies: Object.values(checkCookies),
  // Each OAuth provider's client fields, from the environment where left out, checked at start-up.
  configure(_, resolved) {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {}
    for (const [id, provider] of resolved.providers) {
      if (provider.type === 'oauth' || provider.type === 'oidc') resolved.providers.set(id, withRequiredFields(provider as OAuthConfig<any>, env) as typeof provider)
    }
  },
  method: {
    types: ['oauth', 'oidc'],
    leavesSite: true,
    start: async (ctx, provider) => redirect(ctx, await (await starting()).startOAuth(ctx, provider as OAuthConfig<any>)),
    // A response from the handler means "go elsewhere first" (form_post bounce, redirect proxy forward).
    callback: async (ctx, provider, body) =>
      (await (await returning()).handleOAuthCallback(ctx, provider as OAuthConfig<any>, body)) ?? redirect(ctx, withSignInNotice(ctx, await resolveCallbackUrl(ctx, undefined))),
    formTargets(provider) {
      const p = provider as OAuthConfig<any>
      return p.redirectProxyUrl ? [...knownAuthorizationUrls(p), p.redirectProxyUrl] : knownAuthorizationUrls(p)
    },
    // Only a provider trusted to link by email proves an address (sign-in/complete.ts, linkByEmail).
    provesAddress: (provider) => (provider as OAuthConfig<any>).allowDangerousEmailAccountLinking === true,
  },
}
