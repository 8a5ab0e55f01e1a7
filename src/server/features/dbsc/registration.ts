/** What a sign-in says to a browser that binds sessions itself: where to register, and the challenge to sign. */
import type { Context } from '../../kernel/context.js'
import { issueDbscChallenge } from './challenge.js'
import { challengeHeader, registrationHeader } from './structured-fields.js'
import { challengeHeaderName, registrationHeaderName } from './header-names.js'

/** Adds `Secure-Session-Registration` for the new session to the response. */
export async function offerRegistration(ctx: Context, sessionCookie: string): Promise<void> {
  const challenge = await issueDbscChallenge(ctx, 'register', sessionCookie)
  ctx.headers[registrationHeaderName] = registrationHeader(`${ctx.config.basePath}/dbsc/register`, challenge)
}

/** Adds a refresh challenge for the bound session `bindingId` (`Secure-Session-Challenge`). */
export async function askForProof(ctx: Context, sessionCookie: string, bindingId: string): Promise<void> {
  const challenge = await issueDbscChallenge(ctx, 'refresh', sessionCookie)
  ctx.headers[challengeHeaderName] = challengeHeader(challenge, bindingId)
}
