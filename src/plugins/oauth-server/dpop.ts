/**
 * DPoP (RFC 9449): a client proves, at each request, that it holds the private key its tokens are
 * bound to. A proof is a JWT (`typ: dpop+jwt`) signed with an asymmetric key whose public JWK is
 * in its header, naming the request (`htm`, `htu`), when (`iat`) and a unique `jti`; each
 * key+jti is kept in the store until the proof is too old to pass, so a replay is refused by
 * every server on that store. At the token endpoint a proof binds the access token (`cnf.jkt`)
 * and a public client's refresh tokens; a resource server checks a bound token's proof (`ath`,
 * the key). With `dpopNonce`, proofs must carry the server's nonce: an HMAC of the time under
 * the app's secret, so every server knows it without keeping it.
 */
import { base64url, calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK } from 'jose'
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { requestKey, sha256Hex, type Context, type ResolvedConfig } from 'latchkey/server'
import { OAuthError } from './errors.js'
import { endpoint, oauthStore, serverOptions } from './instance.js'

/** Asymmetric algorithms only: a shared-secret MAC proves nothing about who holds a key. */
export const dpopAlgorithms = ['ES256', 'ES384', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512', 'EdDSA', 'Ed25519']
const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']
/** A proof is good this long after its `iat`, and this much before it (clock skew). */
const maxAge = 60
const skew = 10
const nonceSeconds = 300

export type ProofError = 'invalid_dpop_proof' | 'use_dpop_nonce'

export class DpopError extends Error {
  constructor(
    readonly error: ProofError,
    readonly description: string,
  ) {
    super(description)
  }
}

export interface CheckedProof {
  /** The key's RFC 7638 thumbprint (SHA-256, base64url): what a bound token's `cnf.jkt` names. */
  jkt: string
}

/** Scheme and path: `htu` is compared without query or fragment, after the URL parser's normalisation. */
function requestTarget(value: string): string | null {
  try {
    const url = new URL(value)
    return `${url.origin}${url.pathname}`
  } catch {
    return null
  }
}

/** The one DPoP header's value; undefined for none. Two headers arrive joined by a comma, which no JWT holds. */
export function proofHeader(request: Request): string | undefined {
  const value = request.headers.get('dpop')
  if (value === null) return undefined
  if (value.includes(',') || value.length > 8192) throw new DpopError('invalid_dpop_proof', 'Send one DPoP header holding one proof')
  return value.trim()
}

const nonceOf = (secret: string, window: number) => base64url.encode(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`latchkey oauth-server dpop nonce|${window}`))).slice(0, 32)

/** The nonce to hand out now (the newest secret's). */
export const currentNonce = (config: ResolvedConfig, now: number) => nonceOf(config.secrets[0]!, Math.floor(now / 1000 / nonceSeconds))

/** This window's or the last one's, under any listed secret. */
function nonceIsCurrent(config: ResolvedConfig, nonce: unknown, now: number): boolean {
  if (typeof nonce !== 'string') return false
  const window = Math.floor(now / 1000 / nonceSeconds)
  return config.secrets.some((secret) => [window, window - 1].some((w) => nonceOf(secret, w) === nonce))
}

/** What a proof must name: the request it came with, the access token it goes with (`ath`), and whether the server's nonce is required. */
export interface ProofTarget {
  method: string
  url: string
  accessToken?: string
  nonce?: boolean
}

/** Every check of RFC 9449 §4.3; throws a DpopError saying which failed. */
export async function checkProof(config: ResolvedConfig, proof: string, target: ProofTarget, now: number, replay: (hash: string, expires: Date) => Promise<boolean>): Promise<CheckedProof> {
  const bad = (why: string) => new DpopError('invalid_dpop_proof', why)
  let header: ReturnType<typeof decodeProtectedHeader>
  try {
    header = decodeProtectedHeader(proof)
  } catch {
    throw bad('The DPoP proof is not a JWT')
  }
  if (header.typ !== 'dpop+jwt') throw bad('The DPoP proof\'s typ must be dpop+jwt')
  if (typeof header.alg !== 'string' || !dpopAlgorithms.includes(header.alg)) throw bad(`The DPoP proof\'s alg must be one of ${dpopAlgorithms.join(', ')}`)
  const jwk = header.jwk as JWK | undefined
  if (!jwk || typeof jwk !== 'object' || !['EC', 'RSA', 'OKP'].includes(jwk.kty as string)) throw bad('The DPoP proof\'s header needs the public key as jwk')
  if (privateMembers.some((m) => m in jwk)) throw bad('The DPoP proof\'s jwk holds a private key; send the public key only')
  let payload: Record<string, unknown>
  try {
    ;({ payload } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: dpopAlgorithms, currentDate: new Date(now) }))
  } catch {
    throw bad('The DPoP proof\'s signature does not verify with its jwk')
  }
  const { jti, htm, htu, iat } = payload
  if (typeof jti !== 'string' || !jti || jti.length > 256) throw bad('The DPoP proof needs a jti')
  if (htm !== target.method) throw bad(`The DPoP proof\'s htm is not this request\'s method (${target.method})`)
  if (typeof htu !== 'string' || requestTarget(htu) === null || requestTarget(htu) !== requestTarget(target.url)) throw bad('The DPoP proof\'s htu is not this request\'s URL')
  const seconds = Math.floor(now / 1000)
  if (typeof iat !== 'number' || iat < seconds - maxAge || iat > seconds + skew) throw bad(`The DPoP proof\'s iat is not within ${maxAge} seconds of now`)
  if (target.accessToken !== undefined) {
    const ath = base64url.encode(sha256(utf8ToBytes(target.accessToken)))
    if (payload.ath !== ath) throw bad('The DPoP proof\'s ath is not the hash of this access token')
  }
  if (target.nonce && !nonceIsCurrent(config, payload.nonce, now)) throw new DpopError('use_dpop_nonce', 'The DPoP proof must carry the server\'s current nonce (the DPoP-Nonce header)')
  const jkt = await calculateJwkThumbprint(jwk, 'sha256')
  // Kept past the last instant the proof could pass, then purged.
  if (!(await replay(await sha256Hex(`${jkt}|${jti}`), new Date((iat + maxAge + skew) * 1000)))) throw bad('The DPoP proof was used already; make a new one for each request')
  return { jkt }
}

/** The store's replay check: shared by every server on the adapter. */
export const storeReplay = (config: ResolvedConfig) => (hash: string, expires: Date) => oauthStore(config).useOAuthDpopProof(hash, expires)

/** The token request's proven key, when it came with a good proof. */
export const tokenProof = requestKey<CheckedProof>('oauth-server DPoP proof')

/**
 * At the token endpoint (and PAR): the nonce handed out (with `dpopNonce`), and the request's
 * proof, if any, checked and kept for `tokensFor`; a bad one is the OAuth error RFC 9449 §5 names.
 */
export async function checkTokenRequestProof(ctx: Context, at: 'token' | 'par' = 'token'): Promise<CheckedProof | undefined> {
  const { dpopNonce } = serverOptions.get(ctx.config)
  if (dpopNonce) ctx.headers['dpop-nonce'] = currentNonce(ctx.config, ctx.now)
  try {
    const proof = proofHeader(ctx.request)
    if (proof === undefined) return undefined
    const checked = await checkProof(ctx.config, proof, { method: 'POST', url: endpoint(ctx.config, at), nonce: dpopNonce }, ctx.now, storeReplay(ctx.config))
    tokenProof.set(ctx, checked)
    return checked
  } catch (error) {
    if (error instanceof DpopError) throw new OAuthError(error.error, error.description)
    throw error
  }
}

/** A key the grant is bound to wants the request's proof by that key. */
function requireProofBy(ctx: Context, bound: string, what: string): void {
  const proven = tokenProof.find(ctx)
  if (!proven) throw new OAuthError('invalid_dpop_proof', `${what} is bound to a DPoP key: send a DPoP proof made with it`)
  if (proven.jkt !== bound) throw new OAuthError('invalid_dpop_proof', `The DPoP proof is made with another key than the one ${what.toLowerCase()} is bound to`)
}

/**
 * A refresh token of a grant bound to a key (a public client's) is good only with a proof by
 * that key; checked before the token is spent, so a thief without the key burns nothing.
 */
export async function checkRefreshBinding(ctx: Context, tokenHash: string): Promise<void> {
  const store = oauthStore(ctx.config)
  const found = await store.getOAuthRefreshToken(tokenHash)
  const bound = found ? await store.getOAuthGrantKey(found.grantId) : null
  if (bound !== null) requireProofBy(ctx, bound, 'This refresh token')
}

/** A code whose authorization request named `dpop_jkt` (RFC 9449 §10) is good only with a proof by that key. */
export async function checkCodeBinding(ctx: Context, grantId: string): Promise<void> {
  const bound = await oauthStore(ctx.config).getOAuthGrantKey(grantId)
  if (bound !== null) requireProofBy(ctx, bound, 'This code')
}

/** `dpop_jkt` as RFC 9449 §10 writes it: a SHA-256 JWK thumbprint, base64url. */
export const thumbprintPattern = /^[A-Za-z0-9_-]{43}$/

/** What tokensFor adds: `cnf.jkt` on the access token, and the public client's grant bound. */
export async function bindIssued(ctx: Context, grantId: string | undefined, publicClient: boolean): Promise<{ jkt: string } | undefined> {
  const proven = tokenProof.find(ctx)
  if (!proven) return undefined
  if (grantId !== undefined && publicClient) await oauthStore(ctx.config).bindOAuthGrantKey(grantId, proven.jkt)
  return { jkt: proven.jkt }
}

// ---------------------------------------------------------------- at the resource server

/** The request's access token and how it came: `Authorization: Bearer` or `Authorization: DPoP`. */
export interface PresentedToken {
  scheme: 'Bearer' | 'DPoP'
  token: string
}

/** Undefined for no Authorization header (or another scheme); null for a Bearer or DPoP one that is not one token. */
export function presentedToken(request: Request): PresentedToken | undefined | null {
  const header = request.headers.get('authorization')
  if (header === null) return undefined
  const match = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header)
  if (match) return { scheme: match[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: match[2]! }
  return /^(Bearer|DPoP)\b/i.test(header) ? null : undefined
}

export interface ProofFailure {
  error: 'invalid_token' | 'invalid_dpop_proof'
  description: string
}

/**
 * A verified token as presented: a bound one (`cnf.jkt`) only under `DPoP` with a good proof by
 * its key for this request; an unbound one only as Bearer. Null when it passes.
 */
export async function proofFailure(
  request: Request,
  presented: PresentedToken,
  claims: { cnf?: unknown },
  config: ResolvedConfig | undefined,
  replay: (hash: string, expires: Date) => Promise<boolean>,
  now: number,
): Promise<ProofFailure | null> {
  const cnf = claims.cnf as { jkt?: unknown } | undefined
  const jkt = typeof cnf?.jkt === 'string' ? cnf.jkt : undefined
  if (jkt === undefined) return presented.scheme === 'DPoP' ? { error: 'invalid_token', description: 'The access token is not DPoP-bound; send it as Bearer' } : null
  if (presented.scheme !== 'DPoP') return { error: 'invalid_token', description: 'The access token is DPoP-bound: send it as Authorization: DPoP with a DPoP proof' }
  try {
    const proof = proofHeader(request)
    if (proof === undefined) return { error: 'invalid_dpop_proof', description: 'A DPoP proof (the DPoP header) is required with this token' }
    const checked = await checkProof(config ?? ({ secrets: [] } as unknown as ResolvedConfig), proof, { method: request.method, url: request.url, accessToken: presented.token }, now, replay)
    if (checked.jkt !== jkt) return { error: 'invalid_dpop_proof', description: 'The DPoP proof is made with another key than the one the token is bound to' }
    return null
  } catch (error) {
    if (error instanceof DpopError) return { error: 'invalid_dpop_proof', description: error.description }
    throw error
  }
}

/** 401 with `WWW-Authenticate: DPoP error=..., algs=...` (RFC 9449 §7.1), naming the resource's metadata. */
export function dpopRefusal(resourceMetadata: string, failure: ProofFailure): Response {
  const challenge = `DPoP resource_metadata="${resourceMetadata}", error="${failure.error}", error_description="${failure.description}", algs="${dpopAlgorithms.join(' ')}"`
  return Response.json({ error: failure.error, error_description: failure.description }, { status: 401, headers: { 'www-authenticate': challenge, 'cache-control': 'no-store' } })
}

/** Proofs seen by a resource server elsewhere, in this process only (the store is the authorization server's). */
const seen = new Map<string, number>()
export async function processReplay(hash: string, expires: Date): Promise<boolean> {
  const now = Date.now()
  if (seen.size > 10_000) for (const [k, until] of seen) if (until < now) seen.delete(k)
  if ((seen.get(hash) ?? 0) >= now) return false
  seen.set(hash, expires.getTime())
  return true
}
