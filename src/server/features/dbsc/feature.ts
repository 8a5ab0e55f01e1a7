/** Device-bound sessions (W3C DBSC): registration, refresh and challenges under /dbsc, and the session read's check. */
import type { LatchkeyPlugin } from '../../kernel/plugin.js'
import { boundCookie, hasBoundCookie } from './bound-cookie.js'
import { askForProof, challengeHeaderName, offerRegistration } from './registration.js'
import { getDbsc, postDbsc } from './routes.js'

export const dbsc: LatchkeyPlugin = {
  id: 'dbsc',
  uses: (config) => Boolean(config.session?.deviceBound),
  cookies: [boundCookie],
  routes: { dbsc: { GET: getDbsc, POST: postDbsc, provider: true } },
  configure(_, resolved) {
    if (resolved.deviceBound) resolved.binding = { proven: hasBoundCookie, offer: offerRegistration, askForProof, challengeHeader: challengeHeaderName }
  },
}
