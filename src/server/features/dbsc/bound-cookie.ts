/**
 * The bound credential: a short-lived cookie, sealed, naming the session's device binding. A
 * bound session is read only with it; once it lapses, only a proof signed by the device's key
 * (POST /dbsc/refresh) gets a new one.
 */
import { setCookie, type Context } from '../../kernel/context.js'
import { seal, unseal } from '../../kernel/jwt.js'
import { cookieKey } from '../../kernel/cookies.js'

/** The short-lived credential only the device's key renews. */
export const boundCookie = cookieKey('bound')

/** Sets a new bound cookie; answers its expiry (ms). */
export async function setBoundCookie(ctx: Context, bindingId: string, cookieMaxAge: number): Promise<number> {
  const until = Math.floor((ctx.now + cookieMaxAge * 1000) / 1000) * 1000
  const value = await seal({ b: bindingId }, ctx.config.secrets, boundCookie.of(ctx), { now: Math.floor(ctx.now / 1000), expires: until / 1000 })
  setCookie(ctx, boundCookie.of(ctx), value, { expires: new Date(until) })
  return until
}

/** True when the request carries an unexpired bound cookie for this binding. */
export async function hasBoundCookie(ctx: Context, bindingId: string): Promise<boolean> {
  const raw = ctx.cookies.get(boundCookie.of(ctx))
  if (!raw) return false
  const payload = await unseal<{ b?: unknown }>(raw, ctx.config.secrets, boundCookie.of(ctx), Math.floor(ctx.now / 1000))
  return payload?.b === bindingId
}
