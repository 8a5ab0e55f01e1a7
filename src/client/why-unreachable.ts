/**
 * Why a fetch threw. The browser throws the same TypeError when it is offline, when the server
 * does not answer, and when the server answered but did not let this page read the answer (CORS:
 * the page's origin is not among the server's `trustedOrigins`). A `no-cors` request, whose answer
 * the page may not read, still gets through to a server that is up: so the second is told apart.
 */
export async function whyUnreachable(url: string): Promise<'network' | 'cross-origin'> {
  if (navigator.onLine === false) return 'network'
  const target = new URL(url, location.href)
  if (target.origin === location.origin) return 'network'
  try {
    // The origin's root, not the URL itself: a probe must not repeat a sign-in step.
    await fetch(target.origin + '/', { method: 'HEAD', mode: 'no-cors', credentials: 'omit', cache: 'no-store' })
    return 'cross-origin'
  } catch {
    return 'network'
  }
}

/** What to tell the developer when `url`'s server refused this page's origin. */
export function crossOriginAdvice(url: string): string {
  const server = new URL(url, location.href).origin
  return (
    `${server} answered, but did not let this page (${location.origin}) read the answer. ` +
    `Add '${location.origin}' to trustedOrigins in the server's configuration, ` +
    `or serve the sign-in routes from this page's origin through a proxy (docs/guides/frontend-origin.md).`
  )
}
