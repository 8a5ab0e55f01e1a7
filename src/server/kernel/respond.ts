/** Replies that carry the context's cookies and headers. */
import type { Context, Reply } from './types.js'
import { pageWords } from './page-language.js'

export type { Reply } from './types.js'

export function reply(status: number, headers: Record<string, string>, body: string | null = null, cookies: string[] = []): Reply {
  return { status, headers, cookies, body }
}

export function toResponse(r: Reply): Response {
  if (!r.cookies.length) return new Response(r.body, { status: r.status, headers: r.headers })
  const list = Object.entries(r.headers)
  for (const cookie of r.cookies) list.push(['set-cookie', cookie])
  return new Response(r.body, { status: r.status, headers: list })
}

/** The route's own headers and the context's, a fresh object: a binding may add to it. The route's win. */
function finish(ctx: Context, body: string | null, status: number, own: Readonly<Record<string, string>>): Reply {
  const headers: Record<string, string> = {}
  for (const name in ctx.headers) if (!(name in own)) headers[name] = ctx.headers[name]
  for (const name in own) headers[name] = own[name]
  return reply(status, headers, body, ctx.setCookies)
}

// Every reply says no-store: anything carrying a cookie or session data must not be cached by the browser or a proxy.
// nosniff: a browser reads a JSON answer as JSON only, never sniffs it into HTML or script.
export const jsonHeaders: Readonly<Record<string, string>> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }

export function json(ctx: Context, body: unknown, status = 200): Reply {
  return finish(ctx, JSON.stringify(body), status, jsonHeaders)
}

/** A 302, or `200 { url }` when the caller sent `X-Auth-Return-Redirect: 1`. */
export function redirect(ctx: Context, url: string): Reply {
  if (ctx.returnRedirect) return json(ctx, { url })
  return finish(ctx, null, 302, { location: url, 'cache-control': 'no-store' })
}

/**
 * A sign-in flow sending the person to `page` with `?error=type` (to go on there, or to read why
 * not): a 302, or `{ url, error }` with `status` when the caller sent `X-Auth-Return-Redirect: 1`.
 */
export function redirectWithError(ctx: Context, page: string, type: string, status: number): Reply {
  const url = `${page}${page.includes('?') ? '&' : '?'}error=${encodeURIComponent(type)}`
  if (ctx.returnRedirect) return json(ctx, { url, error: type }, status)
  return redirect(ctx, url)
}

const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
}
/** The pages' images: their own origin, data: (the built-in providers' logos) and https; the theme's logo where it is http on a loopback host (theme.ts lets no other http through). */
const imageSources = (ctx: Context) => {
  const logo = ctx.config.theme.logo
  return logo?.startsWith('http:') ? `'self' data: https: ${new URL(logo).origin}` : "'self' data: https:"
}
const pagePolicy = (ctx: Context) => `default-src 'none'; style-src 'unsafe-inline'; img-src ${imageSources(ctx)}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`

/**
 * A page; its forms may lead only to its own origin and `formTargets` (origins, see form-action.ts).
 * It runs no script but those whose hashes `scripts` gives (page-html.ts `scriptHashes`), and
 * those may call only its own origin. It is in the request's language (page-language.ts), so a
 * cache must key it on `Accept-Language`.
 */
export function html(ctx: Context, body: string, status = 200, formTargets: string[] = [], scripts: string[] = []): Reply {
  let policy = formTargets.length ? `${pagePolicy(ctx)} ${formTargets.join(' ')}` : pagePolicy(ctx)
  if (scripts.length) policy += `; script-src ${scripts.join(' ')}; connect-src 'self'`
  const vary = ctx.headers.vary ? `${ctx.headers.vary}, Accept-Language` : 'Accept-Language'
  return finish(ctx, body, status, { ...pageHeaders, 'content-security-policy': policy, 'content-language': pageWords(ctx).lang, vary })
}
