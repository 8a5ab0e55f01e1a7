/** Response builders that carry the context's cookies and headers. */
import type { Context } from './context.js'

/**
 * String bodies the node binding writes as they are. On Node 20 a Response with a body builds a
 * ReadableStream, and reading it back costs more again; under the binding (`ctx.bodyAside`) the
 * Response carries no body and the string waits here.
 */
const asideBodies = new WeakMap<Response, string>()

export function bodyAside(response: Response): string | undefined {
  return asideBodies.get(response)
}

function finish(ctx: Context, body: string | null, status: number, headers: Record<string, string>): Response {
  const out = new Headers(ctx.headers)
  for (const k in headers) out.set(k, headers[k]!)
  for (const c of ctx.setCookies) out.append('set-cookie', c)
  // Anything carrying a cookie or session data must not be cached by the browser or a proxy.
  if (!out.has('cache-control')) out.set('cache-control', 'no-store')
  if (!ctx.bodyAside || body === null) return new Response(body, { status, headers: out })
  const response = new Response(null, { status, headers: out })
  asideBodies.set(response, body)
  return response
}

const jsonType = { 'content-type': 'application/json; charset=utf-8' }

export function json(ctx: Context, body: unknown, status = 200): Response {
  return finish(ctx, JSON.stringify(body), status, jsonType)
}

/** A 302, or `200 { url }` when the caller sent `X-Auth-Return-Redirect: 1`. */
export function redirect(ctx: Context, url: string): Response {
  if (ctx.returnRedirect) return json(ctx, { url })
  return finish(ctx, null, 302, { location: url })
}

const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https:; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
}

export function html(ctx: Context, body: string, status = 200): Response {
  return finish(ctx, body, status, pageHeaders)
}
