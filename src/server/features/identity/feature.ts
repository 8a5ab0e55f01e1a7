/**
 * The signed-in user's name, image and email address: /identity (routes.ts). Installed wherever
 * there is an adapter (the user is stored); the address changes only through a link to the new
 * one (email-change.ts), which needs an email provider that delivers latchkey's messages.
 */
import { lazy } from '../../kernel/lazy.js'
import type { LatchkeyPlugin } from '../../kernel/plugin.js'

// The checks, the link and its pages load on the first /identity request.
const routes = lazy(() => import('./routes.js'))

export const identity: LatchkeyPlugin = {
  id: 'identity',
  uses: (config) => Boolean(config.adapter),
  // A link that is not the signed-in user's, was used, expired or was altered.
  errorCodes: ['EmailChangeLinkInvalid'],
  rateLimits: {
    // Each one emails the user's inbox and a stranger's: per user and per new address, and per client address.
    emailChange: {
      label: 'email change requests',
      rules: [
        { per: 'account', limit: 5, windowSeconds: 60 * 60 },
        { per: 'client', limit: 20, windowSeconds: 15 * 60 },
      ],
    },
  },
  routes: {
    identity: {
      GET: async (ctx, sub) => (await routes()).getIdentity(ctx, sub),
      POST: async (ctx, sub) => (await routes()).postIdentity(ctx, sub),
      provider: true,
    },
  },
}
