/**
 * The worker's answer to a request whose network fetch failed. Firefox logs a rejected
 * respondWith(), and Response.error() alike, as the worker's fault on every failed request, so the
 * worker answers 504 with this header instead, and the SDK reads it as the NetworkError it is.
 */
export const networkFailureHeader = 'latchkey-network-error'

export function networkFailure(error: unknown): Response {
  const body = JSON.stringify({ error: 'NetworkError', message: String((error as Error)?.message ?? error) })
  return new Response(body, { status: 504, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', [networkFailureHeader]: '1' } })
}
