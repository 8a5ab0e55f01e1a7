/** Where the browser may be sent after a sign-in or sign-out. */
import type { Context } from './context.js'
import { requestKey } from './state.js'

/** Allows relative URLs and URLs of the app's own origin; anything else becomes the origin. */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  const origin = new URL(baseUrl).origin
  try {
    // The URL parser treats "//host" and "/\host" as other origins, as browsers do.
    const target = new URL(url, origin)
    if (target.origin === origin && (target.protocol === 'https:' || target.protocol === 'http:')) return target.href
  } catch {
    // fall through
  }
  return origin
}

/**
 * The validated callback URL of this request (body, query or cookie), through the `redirect`
 * callback. Without one, a `trustedOrigins` origin is allowed too: that is the app's frontend
 * where it is served apart from the API.
 */
export async function resolveCallbackUrl(ctx: Context, candidate: string | undefined): Promise<string> {
  const url = candidate || ctx.cookies.get(ctx.names.callbackUrl) || ctx.origin
  const { redirect } = ctx.config.callbacks
  if (redirect) return redirect({ url, baseUrl: ctx.origin })
  const origin = URL.canParse(url) ? new URL(url).origin : undefined
  return defaultRedirect({ url, baseUrl: origin && ctx.config.trustedOrigins.has(origin) ? origin : ctx.origin })
}

/** The callbackUrl a sign-in's callback was sent (body or query), unchecked. */
const sentToCallback = requestKey<string>('the callbackUrl sent to the callback')

/** GET or POST /callback/:provider notes the callbackUrl it was sent, where there is one. */
export function noteCallbackUrl(ctx: Context, asked: unknown): void {
  if (typeof asked === 'string') sentToCallback.set(ctx, asked)
}

/** Where a sign-in finishing in this request goes on afterwards (one that must wait first): the callbackUrl its callback was sent, else the cookie's, checked. */
export function signInCallbackUrl(ctx: Context): Promise<string> {
  return resolveCallbackUrl(ctx, sentToCallback.find(ctx))
}
