/**
 * Decrypted JWT-session payloads, keyed by the whole cookie value. A browser sends the same cookie
 * on every read until it is re-issued, and decrypting it again is most of a read's cost. The key
 * is authenticated ciphertext, so a hit is exactly what decryption would give; expiry is still
 * checked on every read. Bounded; one cache per configuration, so secrets never mix.
 */
export class TokenCache<T extends { exp: number }> {
  private readonly entries = new Map<string, T>()
  constructor(private readonly limit = 5000) {}

  /** The payload for this token, unless absent or expired at `nowSeconds`. */
  get(token: string, nowSeconds: number): T | undefined {
    const hit = this.entries.get(token)
    if (hit && hit.exp <= nowSeconds) {
      this.entries.delete(token)
      return undefined
    }
    return hit
  }

  set(token: string, payload: T): void {
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(token, payload)
  }
}
