/**
 * The client's one fetch helper: `fetchJson` sends with the session cookie, no cache and JSON
 * asked for, tells a failure to reach the server (also when the worker says so) and an answer that
 * is not JSON, and hands back the answer. `request` and `post` read it for the core client; the
 * passkey client (passkey/http.ts) reads it with its own errors.
 */
import { AuthClientError } from './errors.js'
import { networkFailureHeader } from './network-failure.js'
import { retryAfterOf } from './retry-after.js'
import { crossOriginAdvice, leavesThePagesOrigin, notLatchkeyAdvice, originMismatchAdvice, warnOnce, whyUnreachable } from './why-unreachable.js'

export interface Reply<T> {
  data: T
  response: Response
}

/**
 * Why nothing usable came back: `network`, the server could not be reached; `cross-origin`, a
 * server on another origin answered but refused this page's origin; `origin-mismatch`, the same,
 * from a URL the server gave while the page reaches latchkey on its own origin (the server's
 * `origin` is not the page's); `not-latchkey`, an answer below 500 whose body is not JSON (no
 * latchkey there: a `basePath` that is not the server's); `not-json`, a 5xx whose body is not
 * JSON. `thrown` is what fetch or the body read threw; absent when the worker's stand-in said the
 * network failed.
 */
export type FetchFailure = { kind: 'network' | 'cross-origin' | 'origin-mismatch' | 'not-latchkey' | 'not-json'; message: string; thrown?: unknown }

/**
 * fetch + JSON: the answer and its body, whatever the status; `fail` makes the caller's error of a
 * failure. `base`: the client's basePath URL, where `url` is one the server gave.
 */
export async function fetchJson<T>(url: string, init: RequestInit, fail: (failure: FetchFailure) => Error, base?: string): Promise<Reply<T>> {
  let response: Response
  try {
    response = await fetch(url, { credentials: 'include', cache: 'no-store', ...init, headers: { accept: 'application/json', ...init.headers } })
  } catch (e) {
    if (init.signal?.aborted || (await whyUnreachable(url)) === 'network') {
      throw fail({ kind: 'network', message: `Could not reach ${url}: ${(e as Error).message}`, thrown: e })
    }
    const mismatch = leavesThePagesOrigin(url, base)
    const message = mismatch ? originMismatchAdvice(url, base!) : crossOriginAdvice(url)
    console.warn(`latchkey: ${message}`)
    throw fail({ kind: mismatch ? 'origin-mismatch' : 'cross-origin', message, thrown: e })
  }
  // The worker's stand-in for a failed fetch (src/client/network-failure.ts).
  if (response.headers.has(networkFailureHeader)) throw fail({ kind: 'network', message: `Could not reach ${url}` })
  let data: T
  try {
    // A clone: the body stays readable for the session engine, which may look at it too.
    data = await response.clone().json()
  } catch (e) {
    if (response.status >= 500) throw fail({ kind: 'not-json', message: `${response.status} from ${url} is not JSON: the server, or a proxy in front of it, failed`, thrown: e })
    throw fail(notLatchkey(url, response.status, e))
  }
  return { data, response }
}

/** The failure of an answer that is not latchkey's, its advice on the console once. */
export function notLatchkey(url: string, status: number, thrown?: unknown): FetchFailure {
  const message = notLatchkeyAdvice(url, status)
  warnOnce('not-latchkey', message)
  return { kind: 'not-latchkey', message, thrown }
}

const codes = { network: 'NetworkError', 'cross-origin': 'CrossOriginRefused', 'origin-mismatch': 'OriginMismatch', 'not-latchkey': 'NotLatchkey', 'not-json': 'ServerError' } as const
const clientFailure = (failure: FetchFailure) => new AuthClientError(codes[failure.kind], failure.message)

/**
 * fetch + JSON with typed failures: no connection is 'NetworkError' (also when the worker says
 * so); a server on another origin that refused this page's origin is 'CrossOriginRefused', or
 * 'OriginMismatch' where the page reaches latchkey on its own origin (`base`) and the URL came
 * from the server; an answer that is not latchkey's (a body that is not JSON below 500, a 404
 * naming no error type) is 'NotLatchkey'; a 5xx is 'ServerError' but 503 'StoreUnavailable' (try
 * again after `retryAfter` seconds); a 4xx names the server's error type. A body with `url` (a sign-in or sign-out result, even a failed one) is handed back to the caller.
 */
export async function request<T>(url: string, init: RequestInit = {}, base?: string): Promise<Reply<T>> {
  const reply = await fetchJson<any>(url, init, clientFailure, base)
  const { data, response } = reply
  if (!response.ok && !data?.url) {
    if (response.status === 404 && typeof data?.error !== 'string') throw clientFailure(notLatchkey(url, 404))
    // A 5xx is 'ServerError', but for the one that says "try again": the store did not answer.
    const outage = response.status === 503 && data?.error === 'StoreUnavailable'
    const code = response.status >= 500 && !outage ? 'ServerError' : (data?.error ?? 'ServerError')
    throw new AuthClientError(code, data?.message ?? `${response.status} from ${url}`, { retryAfter: retryAfterOf(response) })
  }
  return reply
}

/** POSTs a form with the double-submit CSRF token and asks for `200 {url}` instead of a redirect. `base`: as for `request`. */
export async function post<T>(url: string, csrfToken: string, fields: Record<string, string>, json?: boolean, base?: string): Promise<Reply<T>> {
  const body = { ...fields, csrfToken }
  return request<T>(
    url,
    {
      method: 'POST',
      headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
      body: json ? JSON.stringify(body) : new URLSearchParams(body),
    },
    base,
  )
}
