/** `corsOrigins` resolved: the origins whose pages may call the client endpoints (cors.ts says which). */
import { configurationError } from 'latchkey/server'
import { isLoopbackHost } from './client-options.js'

/** `corsOrigins`, checked (each an origin as the browser sends it), with the public clients' https redirect origins. */
export function resolveCorsOrigins(given: unknown, clients: Iterable<{ secretHash?: string; redirectUris: string[] }>): ReadonlySet<string> {
  if (given !== undefined && !Array.isArray(given)) throw configurationError('latchkey: oauthServer corsOrigins must be a list of origins, such as ["https://spa.example.com"]')
  const origins = new Set<string>()
  for (const [i, value] of ((given ?? []) as unknown[]).entries()) {
    let url: URL | undefined
    try {
      url = new URL(value as string)
    } catch {}
    if (!url || url.origin !== value || (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))) {
      throw configurationError(`latchkey: oauthServer corsOrigins[${i}] must be an origin alone (https://host[:port], http only on loopback, no path or trailing slash), got ${JSON.stringify(value)}`)
    }
    origins.add(url.origin)
  }
  // A confidential client keeps its secret on a server: its pages never call these endpoints.
  for (const client of clients) {
    if (client.secretHash !== undefined) continue
    for (const uri of client.redirectUris) if (uri.startsWith('https://')) origins.add(new URL(uri).origin)
  }
  return origins
}
