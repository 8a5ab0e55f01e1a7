/**
 * A DBSC proof as the specification defines it: a JWT with `typ: dbsc+jwt`, `alg: ES256`, the
 * challenge as `jti`, and, for registration only, the public key as `jwk` in the header.
 */
import { toBase64Url } from '../../core/encoding.js'

const encoder = new TextEncoder()

export interface ProofRequest {
  /** The challenge the server sent (registration header or Secure-Session-Challenge). */
  challenge: string
  /** Copied from the registration header when it named one. */
  authorization?: string
  /** Registration: the public key goes in the header. Refresh: omit it. */
  publicKey?: CryptoKey
}

export async function signProof(privateKey: CryptoKey, { challenge, authorization, publicKey }: ProofRequest): Promise<string> {
  const header: Record<string, unknown> = { typ: 'dbsc+jwt', alg: 'ES256' }
  if (publicKey) {
    const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', publicKey)
    header.jwk = { kty, crv, x, y }
  }
  const payload: Record<string, unknown> = { jti: challenge }
  if (authorization !== undefined) payload.authorization = authorization
  const input = `${part(header)}.${part(payload)}`
  // WebCrypto's ECDSA signature is r || s, 64 bytes: the JWS form for ES256 as it is.
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, encoder.encode(input))
  return `${input}.${toBase64Url(new Uint8Array(signature))}`
}

function part(value: object): string {
  return toBase64Url(encoder.encode(JSON.stringify(value)))
}
