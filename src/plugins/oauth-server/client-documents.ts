/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, the MCP
 * authorization spec's way for a client to need no registration): a `client_id` that is an https
 * URL names a JSON document the server fetches (safe-fetch.ts: public addresses only, no redirect,
 * size and time caps), whose `client_id` must be that URL, and whose metadata becomes the client
 * (public: no secret). Documents are cached per instance as Cache-Control says, within bounds;
 * a failure is remembered briefly too, so one client cannot make the server fetch on every request.
 */
import { checkMetadata, resolvedFrom, type ClientMetadata } from './client-metadata.js'
import { OAuthError } from './errors.js'
import type { ResolvedClient } from './options.js'
import type { ResolvedDocuments } from './client-options.js'
import { FetchRefused, safeFetch } from './safe-fetch.js'

const defaultSeconds = 300
const failureSeconds = 30
const cacheEntries = 1000

/** True for a client_id shaped as a metadata document URL: https, a path, no fragment, no dot segments, no credentials. */
export function isDocumentUrl(clientId: string): boolean {
  if (!clientId.startsWith('https://')) return false
  let url: URL
  try {
    url = new URL(clientId)
  } catch {
    return false
  }
  const segments = clientId.slice(url.origin.length).split(/[?#]/)[0]!.split('/')
  return url.href === clientId && url.pathname !== '/' && !url.hash && !url.username && !url.password && !segments.some((s) => s === '.' || s === '..' || /^%2e/i.test(s))
}

type Cached = { client: ResolvedClient; until: number } | { refused: string; until: number }
const caches = new WeakMap<ResolvedDocuments, Map<string, Cached>>()
const inFlight = new WeakMap<ResolvedDocuments, Map<string, Promise<Cached>>>()

/** Seconds to keep a document: its max-age (no-store and no-cache: the minimum), within the bounds. */
function keepSeconds(cacheControl: string | string[] | undefined, documents: ResolvedDocuments): number {
  const header = Array.isArray(cacheControl) ? cacheControl.join(',') : (cacheControl ?? '')
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(header)
  const wanted = /no-store|no-cache/i.test(header) ? 0 : maxAge ? Number(maxAge[1]) : defaultSeconds
  return Math.min(documents.maxSeconds, Math.max(documents.minSeconds, wanted))
}

async function load(clientId: string, documents: ResolvedDocuments, scopes: string[], now: number): Promise<Cached> {
  const url = new URL(clientId)
  const refused = (why: string): Cached => ({ refused: why, until: now + failureSeconds * 1000 })
  if (documents.allowedHosts && !documents.allowedHosts.includes(url.hostname)) return refused('the host of client_id is not one this server accepts documents from')
  let fetched
  try {
    fetched = await safeFetch(url, documents.limits)
  } catch (error) {
    if (error instanceof FetchRefused) return refused(`the client ID metadata document could not be fetched: ${error.reason}`)
    throw error
  }
  if (fetched.status !== 200) return refused(`the client ID metadata document answered ${fetched.status}, not 200`)
  const type = String(fetched.headers['content-type'] ?? '')
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) return refused('the client ID metadata document is not served as application/json')
  let metadata: ClientMetadata
  try {
    metadata = JSON.parse(fetched.body) as ClientMetadata
  } catch {
    return refused('the client ID metadata document is not JSON')
  }
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return refused('the client ID metadata document is not a JSON object')
  if (metadata.client_id !== clientId) return refused('the client ID metadata document names another client_id than its own URL')
  // A document is public: a secret in it is no secret.
  for (const field of ['client_secret', 'client_secret_expires_at']) if (field in metadata) return refused(`the client ID metadata document must not contain ${field}`)
  try {
    const checked = checkMetadata(metadata, scopes, ['none'])
    // The name is the client's own claim: the host it is served from goes beside it.
    const name = checked.name ? `${checked.name} (${url.host})` : url.host
    return { client: resolvedFrom(clientId, checked, name), until: now + keepSeconds(fetched.headers['cache-control'], documents) * 1000 }
  } catch (error) {
    if (error instanceof OAuthError) return refused(`the client ID metadata document is invalid: ${error.description}`)
    throw error
  }
}

/**
 * The client a metadata document URL names, from the cache or fetched now; an OAuthError
 * (invalid_client_metadata... as invalid_request at authorize, invalid_client at the token endpoint) when it cannot be used.
 */
export async function documentClient(clientId: string, documents: ResolvedDocuments, scopes: string[], now: number): Promise<ResolvedClient> {
  let cache = caches.get(documents)
  if (!cache) caches.set(documents, (cache = new Map()))
  let cached = cache.get(clientId)
  if (!cached || cached.until <= now) {
    let flights = inFlight.get(documents)
    if (!flights) inFlight.set(documents, (flights = new Map()))
    let flight = flights.get(clientId)
    if (!flight) {
      flight = load(clientId, documents, scopes, now).finally(() => flights.delete(clientId))
      flights.set(clientId, flight)
    }
    cached = await flight
    cache.delete(clientId)
    cache.set(clientId, cached)
    // Oldest out first: the cache stays bounded whatever clients name.
    while (cache.size > cacheEntries) cache.delete(cache.keys().next().value!)
  }
  if ('refused' in cached) throw new OAuthError('invalid_client_metadata', cached.refused)
  return cached.client
}
