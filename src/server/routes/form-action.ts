/**
 * The `form-action` sources of the server's own pages. Browsers check form-action on every hop of
 * the navigation a form starts, redirects included (Chromium does), so beside 'self' the list
 * names where latchkey's answer to one of its forms may send the browser: the provider's
 * authorization endpoint (and, when the provider signs the user in at once, the redirect proxy
 * and the app on its way back), the app's origin and trusted origins (callback URLs), and the
 * configured pages. A `redirect` callback that sends the browser elsewhere needs that origin
 * in `trustedOrigins`.
 */
import type { Context } from '../kernel/context.js'
import { methodOf } from '../kernel/plugin.js'

/** Where the sign-in page's forms may lead: the common targets and each provider's (its method says). */
export function signInFormTargets(ctx: Context): string[] {
  const urls = commonTargets(ctx)
  if (ctx.config.redirectProxyUrl) urls.push(ctx.config.redirectProxyUrl)
  for (const provider of ctx.config.providers.values()) urls.push(...(methodOf(ctx.config, provider)?.formTargets?.(provider) ?? []))
  return sources(ctx, urls)
}

/** Where the sign-out page's form may lead: a callback URL or a configured page. */
export function signOutFormTargets(ctx: Context): string[] {
  return sources(ctx, commonTargets(ctx))
}

function commonTargets(ctx: Context): string[] {
  const { pages, trustedOrigins } = ctx.config
  return [ctx.origin, ...trustedOrigins, ...Object.values(pages)].filter((u): u is string => typeof u === 'string')
}

/** Distinct http(s) origins; anything that is not a plain origin is left out. */
function sources(ctx: Context, urls: string[]): string[] {
  const out = new Set<string>()
  for (const url of urls) {
    let origin: string
    try {
      origin = new URL(url, ctx.origin).origin
    } catch {
      continue
    }
    // A host may hold ";" or "," for the URL parser; either would end the directive.
    if (/^https?:\/\/[a-z0-9.:[\]-]+$/i.test(origin)) out.add(origin)
  }
  return [...out]
}
