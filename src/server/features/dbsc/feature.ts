/** Device-bound sessions (W3C DBSC): registration, refresh and challenges under /dbsc, and the session read's check. */
import type { LatchkeyPlugin } from '../../kernel/plugin.js'
import { lazy } from '../../kernel/lazy.js'
import { boundCookie, hasBoundCookie } from './bound-cookie.js'
import { challengeHeaderName } from './header-names.js'

// The routes, challenges and proof checks (jose's JWS verify) load on first use. The session
// read's check of a bound cookie (`proven`) stays here: it runs on every read of a bound session.
const routes = lazy(() => import('./routes.js'))
const registration = lazy(() => import('./registration.js'))

export const dbsc: LatchkeyPlugin = {
  id: 'dbsc',
  rateLimits: {
    // Each one stores a challenge; a worker asks once per sign-in. Counted per session, not per
    // user, so many people signed in to one shared account do not hold each other back.
    dbscChallenge: {
      label: 'device-binding challenges',
      accountName: 'session',
      // Not a guess, and the worker asks one to keep a signed-in session: a store outage must not sign people out.
      whenStoreFails: 'open',
      rules: [
        { per: 'account', limit: 10, windowSeconds: 60 },
        { per: 'client', limit: 60, windowSeconds: 60 },
      ],
    },
  },
  uses: (config) => Boolean(config.session?.deviceBound),
  cookies: [boundCookie],
  routes: {
    dbsc: {
      GET: async (ctx, step) => (await routes()).getDbsc(ctx, step),
      POST: async (ctx, step) => (await routes()).postDbsc(ctx, step),
      provider: true,
    },
  },
  configure(_, resolved) {
    if (!resolved.deviceBound) return
    resolved.binding = {
      proven: hasBoundCookie,
      offer: async (ctx, sessionCookie) => (await registration()).offerRegistration(ctx, sessionCookie),
      askForProof: async (ctx, sessionCookie, bindingId) => (await registration()).askForProof(ctx, sessionCookie, bindingId),
      challengeHeader: challengeHeaderName,
    }
  },
}
