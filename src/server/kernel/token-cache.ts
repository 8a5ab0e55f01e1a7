/**
 * Decrypted JWT-session payloads, keyed by the whole cookie value. A browser sends the same cookie
 * on every read until it is re-issued, and decrypting it again is most of a read's cost. The key
 * is authenticated ciphertext, so a hit is exactly what decryption would give; expiry is still
 * checked on every read. The salt (the cookie's name) the token was opened with is kept beside
 * it: a token opened for one name is no hit for another. One cache per configuration, so secrets
 * never mix.
 *
 * Small on purpose: it is for the same browser asking again (tabs, an app's API calls), not for
 * holding every user. With many users each miss adds an entry, and an entry that lives long
 * enough to reach V8's old generation costs a full collection to clear: with 10,000 users in
 * turn, a 5,000-entry cache never hit and made reads 8 to 20% slower than a 256-entry cache or
 * none (one-off A/B runs of server-speed's JWT row through the node binding).
 */
export class TokenCache<T extends { exp: number }> {
  private readonly entries = new Map<string, { salt: string; payload: T }>()
  constructor(private readonly limit = 512) {}

  /** The payload for this token and salt, unless absent or expired at `nowSeconds`. */
  get(token: string, salt: string, nowSeconds: number): T | undefined {
    const hit = this.entries.get(token)
    if (!hit || hit.salt !== salt) return undefined
    if (hit.payload.exp <= nowSeconds) {
      this.entries.delete(token)
      return undefined
    }
    return hit.payload
  }

  set(token: string, salt: string, payload: T): void {
    // A Map iterates in insertion order: its first key is the oldest entry.
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(token, { salt, payload })
  }
}
