/** JSON over the client's fetch helper for the passkey routes, with every failure as a `PasskeyError`. */
import { fetchJson, type FetchFailure } from '../request.js'
import { fromServer, PasskeyError, cancelled } from './errors.js'

const reasonHeader = 'latchkey-webauthn-error'

export async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  const { data, response } = await fetchJson<any>(url, init, (failure) => passkeyFailure(failure, init.signal))
  // A failed callback answers `{ url, error }` (with X-Auth-Return-Redirect), sometimes with status 200.
  if (!response.ok || data?.error) throw fromServer(response.status, data, response.headers.get(reasonHeader))
  return data as T
}

/** A fetch or body read that failed because the ceremony was aborted is a cancellation. */
function passkeyFailure(failure: FetchFailure, signal: AbortSignal | null | undefined): PasskeyError {
  if ('thrown' in failure && signal?.aborted) return cancelled()
  if (failure.kind === 'not-json') return new PasskeyError('server', failure.message)
  // The passkey client calls its basePath's URLs only: none is the server's own URL on another origin.
  const kind = failure.kind === 'origin-mismatch' ? 'cross-origin' : failure.kind
  return new PasskeyError(kind, failure.message, { cause: failure.thrown })
}

export function postJson<T>(url: string, body: unknown): Promise<T> {
  return call<T>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-return-redirect': '1' },
    body: JSON.stringify(body),
  })
}
