/** Response builders that carry the context's cookies and headers. */
import type { Context } from './context.js'

function finish(ctx: Context, body: BodyInit | null, status: number, headers: Record<string, string>): Response {
  const out = new Headers(ctx.headers)
  for (const [k, v] of Object.entries(headers)) out.set(k, v)
  for (const c of ctx.setCookies) out.append('set-cookie', c)
  // Anything carrying a cookie or session data must not be cached by the browser or a proxy.
  if (!out.has('cache-control')) out.set('cache-control', 'no-store')
  return new Response(body, { status, headers: out })
}

export function json(ctx: Context, body: unknown, status = 200): Response {
  return finish(ctx, JSON.stringify(body), status, { 'content-type': 'application/json; charset=utf-8' })
}

/** A 302, or `200 { url }` when the caller sent `X-Auth-Return-Redirect: 1`. */
export function redirect(ctx: Context, url: string): Response {
  if (ctx.returnRedirect) return json(ctx, { url })
  return finish(ctx, null, 302, { location: url })
}

const pageSecurity = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https:; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
}

export function html(ctx: Context, body: string, status = 200): Response {
  return finish(ctx, body, status, { 'content-type': 'text/html; charset=utf-8', ...pageSecurity })
}
