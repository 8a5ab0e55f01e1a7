/**
 * A sign-in posted to /callback with its fields (credentials, passwords): POST only, the CSRF
 * token, "confirm it's you" noted, then the sign-in, and the browser sent where it asked.
 */
import { AuthError } from '../../core/errors.js'
import type { Body } from '../kernel/body.js'
import type { Context } from '../kernel/context.js'
import { verifyCsrf } from '../kernel/csrf.js'
import { resolveCallbackUrl } from '../kernel/redirect-url.js'
import { redirect, type Reply } from '../kernel/respond.js'
import { noteConfirm } from './confirm.js'
import { answerDue, type SignInResult } from './complete.js'

export async function postedCallback(ctx: Context, body: Body, what: string, signIn: () => Promise<SignInResult>): Promise<Reply> {
  if (ctx.request.method !== 'POST') throw new AuthError('UnknownAction', `${what} sign-in takes POST`, { status: 405 })
  await verifyCsrf(ctx, body.csrfToken)
  await noteConfirm(ctx, body, false)
  const target = await resolveCallbackUrl(ctx, typeof body.callbackUrl === 'string' ? body.callbackUrl : undefined)
  return answerDue(ctx, await signIn()) ?? redirect(ctx, target)
}
