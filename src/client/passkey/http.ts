/** JSON over fetch for the passkey routes, with every failure as a `PasskeyError`. */
import { networkFailureHeader } from '../network-failure.js'
import { fromServer, PasskeyError, cancelled } from './errors.js'

const reasonHeader = 'latchkey-webauthn-error'

export async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response
  try {
    response = await fetch(url, { credentials: 'include', cache: 'no-store', ...init, headers: { accept: 'application/json', ...init.headers } })
  } catch (e) {
    if (init.signal?.aborted) throw cancelled()
    throw new PasskeyError('network', `Could not reach ${url}: ${(e as Error).message}`, { cause: e })
  }
  // The worker's stand-in for a failed fetch (src/client/network-failure.ts).
  if (response.headers.has(networkFailureHeader)) throw new PasskeyError('network', `Could not reach ${url}`)
  let body: any = null
  try {
    body = await response.json()
  } catch {
    if (init.signal?.aborted) throw cancelled()
    throw new PasskeyError('server', `${response.status} from ${url} is not JSON`)
  }
  // A failed callback answers `{ url, error }` (with X-Auth-Return-Redirect), sometimes with status 200.
  if (!response.ok || body?.error) throw fromServer(response.status, body, response.headers.get(reasonHeader))
  return body as T
}

export function postJson<T>(url: string, body: unknown): Promise<T> {
  return call<T>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-return-redirect': '1' },
    body: JSON.stringify(body),
  })
}
