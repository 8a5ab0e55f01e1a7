/**
 * The client's one fetch helper: `fetchJson` sends with the session cookie, no cache and JSON
 * asked for, tells a failure to reach the server (also when the worker says so) and an answer that
 * is not JSON, and hands back the answer. `request` and `post` read it for the core client; the
 * passkey client (passkey/http.ts) reads it with its own errors.
 */
import { AuthClientError } from './errors.js'
import { networkFailureHeader } from './network-failure.js'
import { crossOriginAdvice, whyUnreachable } from './why-unreachable.js'

export interface Reply<T> {
  data: T
  response: Response
}

/**
 * Why nothing usable came back: `network`, the server could not be reached; `cross-origin`, a
 * server on another origin answered but refused this page's origin; `not-json`, it answered with
 * a body that is not JSON. `thrown` is what fetch or the body read threw; absent when the
 * worker's stand-in said the network failed.
 */
export type FetchFailure = { kind: 'network' | 'cross-origin' | 'not-json'; message: string; thrown?: unknown }

/** fetch + JSON: the answer and its body, whatever the status; `fail` makes the caller's error of a failure. */
export async function fetchJson<T>(url: string, init: RequestInit, fail: (failure: FetchFailure) => Error): Promise<Reply<T>> {
  let response: Response
  try {
    response = await fetch(url, { credentials: 'include', cache: 'no-store', ...init, headers: { accept: 'application/json', ...init.headers } })
  } catch (e) {
    if (init.signal?.aborted || (await whyUnreachable(url)) === 'network') {
      throw fail({ kind: 'network', message: `Could not reach ${url}: ${(e as Error).message}`, thrown: e })
    }
    const message = crossOriginAdvice(url)
    console.warn(`latchkey: ${message}`)
    throw fail({ kind: 'cross-origin', message, thrown: e })
  }
  // The worker's stand-in for a failed fetch (src/client/network-failure.ts).
  if (response.headers.has(networkFailureHeader)) throw fail({ kind: 'network', message: `Could not reach ${url}` })
  let data: T
  try {
    // A clone: the body stays readable for the session engine, which may look at it too.
    data = await response.clone().json()
  } catch (e) {
    throw fail({ kind: 'not-json', message: `${response.status} from ${url} is not JSON`, thrown: e })
  }
  return { data, response }
}

const codes = { network: 'NetworkError', 'cross-origin': 'CrossOriginRefused', 'not-json': 'ServerError' } as const
const clientFailure = (failure: FetchFailure) => new AuthClientError(codes[failure.kind], failure.message)

/**
 * fetch + JSON with typed failures: no connection is 'NetworkError' (also when the worker says
 * so); a server on another origin that refused this page's origin is 'CrossOriginRefused'; a 5xx, or a body that is not JSON, is 'ServerError'; a 4xx names the server's error type.
 * A body with `url` (a sign-in or sign-out result, even a failed one) is handed back to the caller.
 */
export async function request<T>(url: string, init: RequestInit = {}): Promise<Reply<T>> {
  const reply = await fetchJson<any>(url, init, clientFailure)
  const { data, response } = reply
  if (!response.ok && !data?.url) {
    throw new AuthClientError(response.status >= 500 ? 'ServerError' : (data?.error ?? 'ServerError'), data?.message ?? `${response.status} from ${url}`)
  }
  return reply
}

/** POSTs a form with the double-submit CSRF token and asks for `200 {url}` instead of a redirect. */
export async function post<T>(url: string, csrfToken: string, fields: Record<string, string>, json?: boolean): Promise<Reply<T>> {
  const body = { ...fields, csrfToken }
  return request<T>(url, {
    method: 'POST',
    headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
    body: json ? JSON.stringify(body) : new URLSearchParams(body),
  })
}
