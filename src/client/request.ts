import { AuthClientError } from './errors.js'
import { networkFailureHeader } from './network-failure.js'

export interface Reply<T> {
  data: T
  response: Response
}

/**
 * fetch + JSON with typed failures: no connection is 'NetworkError' (also when the worker says
 * so); a 5xx, or a body that is not JSON, is 'ServerError'; a 4xx names the server's error type.
 * A body with `url` (a sign-in or sign-out result, even a failed one) is handed back to the caller.
 */
export async function request<T>(url: string, init: RequestInit = {}): Promise<Reply<T>> {
  let response: Response
  try {
    response = await fetch(url, { credentials: 'include', cache: 'no-store', ...init, headers: { accept: 'application/json', ...init.headers } })
  } catch (e) {
    throw new AuthClientError('NetworkError', `Could not reach ${url}: ${(e as Error).message}`)
  }
  // The worker's stand-in for a failed fetch (src/client/network-failure.ts).
  if (response.headers.has(networkFailureHeader)) throw new AuthClientError('NetworkError', `Could not reach ${url}`)
  let data: any
  try {
    // A clone: the body stays readable for the session engine, which may look at it too.
    data = await response.clone().json()
  } catch {
    throw new AuthClientError('ServerError', `${response.status} from ${url} is not JSON`)
  }
  if (!response.ok && !data?.url) {
    throw new AuthClientError(response.status >= 500 ? 'ServerError' : (data?.error ?? 'ServerError'), data?.message ?? `${response.status} from ${url}`)
  }
  return { data, response }
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
