/**
 * Whether `response` is the word of the server at `origin`: its final URL is there and no
 * redirect took it elsewhere on the way. Another origin may answer anything over CORS
 * (`Latchkey-Session: none` included), and a same-origin request that passed through another
 * origin comes back tainted `cors`, so a redirected response counts only when `basic`. A response
 * made in code (`default`) is the caller's own.
 */
export function fromOrigin(response: Response, origin: string): boolean {
  if (response.type === 'default') return true
  if (!response.url || new URL(response.url).origin !== origin) return false
  return !response.redirected || response.type === 'basic'
}
