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

/**
 * True when the client reaches latchkey on this page's own origin (its `basePath`, through a
 * proxy or on one server) and `url`, a URL the server gave (a provider's `signinUrl`), is on
 * another: the server's `origin` is not the page's, so its URLs lead the page away from the proxy.
 */
export function leavesThePagesOrigin(url: string, base: string | undefined): boolean {
  return !!base && new URL(base, location.href).origin === location.origin && new URL(url, location.href).origin !== location.origin
}

/** What to tell the developer when the server's own URLs lead this page to another origin, which refused it. */
export function originMismatchAdvice(url: string, base: string): string {
  const server = new URL(url, location.href).origin
  return (
    `This page reaches latchkey at ${new URL(base, location.href).href}, on its own origin, but the server builds its URLs on ${server}, ` +
    `which did not let this page (${location.origin}) read the answer. The server's origin setting is not the page's: ` +
    `set origin (or AUTH_URL) to '${location.origin}', the page's URL, in the server's configuration (docs/guides/frontend-origin.md).`
  )
}

/**
 * What to tell the developer when `url` answered `status` with a body that is not JSON (or a 404
 * that is not latchkey's): no latchkey answers there, most often a `basePath` that is not the
 * server's, or routes not mounted or proxied at that path (a dev server that answers every path
 * with its index.html answers 200 with HTML).
 */
export function notLatchkeyAdvice(url: string, status?: number): string {
  const at = new URL(url, location.href).href
  return (
    `${status === undefined ? 'The answer' : status} from ${at} is not latchkey's: no latchkey server answers at that URL. ` +
    `Check that the client's basePath matches the server's basePath (both default to /auth), and that the sign-in routes are mounted ` +
    `at that path, or proxied there by the server that serves this page (docs/client.md#errors).`
  )
}

const warned = new Set<string>()

/** The console warning of a set-up mistake, once per page and kind: a page that keeps asking does not flood the console. */
export function warnOnce(kind: string, message: string): void {
  if (warned.has(kind)) return
  warned.add(kind)
  console.warn(`latchkey: ${message}`)
}
