/**
 * The browser that asked for an email link carries a short sealed cookie naming the address and
 * that link (a hash of its token). From a plain GET, that browser alone is signed in straight
 * from the link: a mail scanner, a chat preview or another device has no such cookie.
 */
import type { Context } from '../../kernel/context.js'
import { clearCookie, setCookie } from '../../kernel/context.js'
import { sha256Hex, timingSafeEqual } from '../../kernel/crypto.js'
import { seal, unseal } from '../../kernel/jwt.js'
import { requestCookie } from './request-cookie.js'

const linkId = (token: string) => sha256Hex(`email-link|${token}`)

/** Marks this browser as the one that asked for the link to `identifier` with `token`, until `expires`. */
export async function noteRequester(ctx: Context, identifier: string, token: string, expires: Date): Promise<void> {
  const value = await seal({ e: identifier, l: await linkId(token) }, ctx.config.secrets, requestCookie.of(ctx), {
    now: Math.floor(ctx.now / 1000),
    expires: Math.ceil(expires.getTime() / 1000),
  })
  setCookie(ctx, requestCookie.of(ctx), value, { expires })
}

/** Whether this request comes from the browser that asked for this link. */
export async function isRequester(ctx: Context, identifier: string, token: string): Promise<boolean> {
  const raw = ctx.cookies.get(requestCookie.of(ctx))
  if (!raw) return false
  const payload = await unseal<{ e?: unknown; l?: unknown }>(raw, ctx.config.secrets, requestCookie.of(ctx), Math.floor(ctx.now / 1000))
  return payload?.e === identifier && typeof payload.l === 'string' && timingSafeEqual(payload.l, await linkId(token))
}

/** The link was used: the cookie has done its work. */
export function forgetRequester(ctx: Context): void {
  if (ctx.cookies.get(requestCookie.of(ctx)) !== undefined) clearCookie(ctx, requestCookie.of(ctx))
}
