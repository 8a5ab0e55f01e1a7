/**
 * The device's session key where the browser does not bind sessions itself: an ECDSA P-256 key
 * made with WebCrypto as non-extractable, so its private half never leaves the CryptoKey (it can
 * be kept in IndexedDB, which stores CryptoKeys as they are, but never exported or posted).
 */

/** A new key pair: the private key cannot be exported; the public one can, for the server. */
export function createDeviceKey(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])
}
