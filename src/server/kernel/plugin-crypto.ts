/**
 * The kernel's crypto as latchkey/server gives it to plugins, typed with the ES library alone:
 * crypto.ts names the DOM's CryptoKey, and the entry's declarations must compile without the DOM.
 */
import * as kernel from './crypto.js'

/** A Web Crypto key (a `CryptoKey` where the DOM's types are loaded). */
export interface DerivedKey {
  readonly algorithm: { name: string }
  readonly usages: readonly string[]
}

export const randomToken: (bytes?: number) => string = kernel.randomToken
export const sha256Hex: (text: string) => Promise<string> = kernel.sha256Hex
export const timingSafeEqual: (a: string, b: string) => boolean = kernel.timingSafeEqual
/** An AES-256-GCM key from the secret (HKDF-SHA-256; `salt` separates uses), derived once per pair. */
export const deriveKey: (secret: string, salt: string) => Promise<DerivedKey> = kernel.deriveKey
