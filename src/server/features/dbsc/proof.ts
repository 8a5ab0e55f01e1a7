/**
 * DBSC proofs: JWTs (`typ: dbsc+jwt`) signed with the device's session key. Registration carries
 * the public key in the header (`jwk`); refresh must not, and is checked against the key stored
 * with the session. `alg: none` is refused: a session bound to no key is not bound.
 */
import { decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose'
import { AuthError } from '../../../core/errors.js'
import type { PublicJWK } from '../../../core/types.js'

const algorithms = ['ES256', 'RS256'] as const
type Algorithm = (typeof algorithms)[number]

export interface Proof {
  /** The challenge the device signed. */
  jti: string
  /** The public key (registration), as stored with the session. */
  jwk: JWK
}

/** Checks a registration proof: signed by the key in its own header. */
export async function verifyRegistrationProof(jwt: string): Promise<Proof> {
  const header = readHeader(jwt)
  if (!header.jwk || typeof header.jwk !== 'object') throw refused('a registration proof carries its public key in the `jwk` header')
  const jwk = publicJwk(header.jwk, header.alg)
  return { jti: await verifiedJti(jwt, jwk, header.alg), jwk }
}

/** Checks a refresh proof against the key registered for the session. */
export async function verifyRefreshProof(jwt: string, key: PublicJWK): Promise<string> {
  const header = readHeader(jwt)
  if (header.jwk !== undefined) throw refused('a refresh proof must not carry a `jwk` header')
  return verifiedJti(jwt, publicJwk(key, header.alg), header.alg)
}

function readHeader(jwt: string): { alg: Algorithm; jwk?: unknown } {
  let header: ReturnType<typeof decodeProtectedHeader>
  try {
    header = decodeProtectedHeader(jwt)
  } catch {
    throw refused('expected a JWT')
  }
  if (header.typ !== 'dbsc+jwt') throw refused('expected `typ: dbsc+jwt`')
  if (!algorithms.includes(header.alg as Algorithm)) throw refused('expected `alg` ES256 or RS256')
  return header as { alg: Algorithm; jwk?: unknown }
}

/** The key's public members only, and only a key that fits the algorithm. */
function publicJwk(value: unknown, alg: Algorithm): JWK {
  const key = value as Record<string, unknown>
  if ('d' in key || 'p' in key || 'k' in key) throw refused('the `jwk` must be a public key')
  if (alg === 'ES256' && key.kty === 'EC' && key.crv === 'P-256' && typeof key.x === 'string' && typeof key.y === 'string') {
    return { kty: 'EC', crv: 'P-256', x: key.x, y: key.y }
  }
  if (alg === 'RS256' && key.kty === 'RSA' && typeof key.n === 'string' && typeof key.e === 'string' && key.n.length >= 342) {
    // 342 base64url characters: a 2048-bit modulus, the least accepted.
    return { kty: 'RSA', n: key.n, e: key.e }
  }
  throw refused(`expected a ${alg === 'ES256' ? 'P-256 EC' : 'RSA (2048 bits or more)'} public key for ${alg}`)
}

async function verifiedJti(jwt: string, jwk: JWK, alg: Algorithm): Promise<string> {
  let payload: Record<string, unknown>
  try {
    const key = await importJWK(jwk, alg)
    payload = (await jwtVerify(jwt, key, { typ: 'dbsc+jwt', algorithms: [alg] })).payload
  } catch {
    // Well formed, but not this key's: a refusal, not bad input.
    throw new AuthError('AccessDenied', 'Device-bound session proof refused: the proof is not signed by the session key', { status: 403 })
  }
  if (typeof payload.jti !== 'string' || !payload.jti) throw refused('expected the challenge in `jti`')
  return payload.jti
}

function refused(why: string): AuthError {
  return new AuthError('InvalidRequest', `Device-bound session proof refused: ${why}`, { status: 400 })
}
