/**
 * The options of the clients that are not configured one by one: client ID metadata documents
 * and dynamic registration, checked at start-up like the rest (options.ts); and the URL and
 * secret rules every kind of client shares.
 */
import { configurationError } from 'latchkey/server'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import type { SafeFetchLimits } from './safe-fetch.js'

/** True for an http(s) URL on 127.0.0.1, [::1] or localhost. */
export const isLoopbackHost = (host: string) => host === '127.0.0.1' || host === '[::1]' || host === 'localhost'

/** A client secret as kept and compared: SHA-256, hex (the secrets are long and random, so no slow hash is needed). */
export const secretHash = (secret: string) => bytesToHex(sha256(utf8ToBytes(secret)))

/** Why a redirect URI cannot be registered, or undefined for a good one. */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || uri.length > 2000) return 'must be a URL of at most 2000 characters'
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return 'must be an absolute URL'
  }
  if (url.hash || uri.includes('#')) return 'must have no fragment (#...)'
  if (['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:'].includes(url.protocol)) return `cannot use ${url.protocol}`
  // A private-use scheme (com.example.app:/callback) is a native app's (RFC 8252 §7.1); http only where nobody else can listen.
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return 'uses http on a host that is not loopback; use https, or http://127.0.0.1 for a native app'
  if ((url.protocol === 'http:' || url.protocol === 'https:') && (url.username || url.password)) return 'must carry no user name or password'
  return undefined
}

export interface ClientIdMetadataDocumentOptions {
  /** Only documents on these hosts (exact, lower case); default: any public host. */
  allowedHosts?: string[]
  /** Largest document read, bytes; default 5120. */
  maxBytes?: number
  /** Time for the whole fetch (DNS, TLS, body), ms; default 3000. */
  timeoutMs?: number
  /** Seconds a document is kept at least and at most, whatever its Cache-Control says; default 60 and 86400. */
  cacheSeconds?: { min?: number; max?: number }
  /**
   * For tests only: documents on loopback (127.0.0.1, ::1, localhost) are fetched, trusting `ca`.
   * Every other private range stays refused. Never set it in production.
   */
  unsafeTesting?: { allowLoopback: true; ca?: string }
}

export interface ResolvedDocuments {
  allowedHosts?: string[]
  limits: SafeFetchLimits
  minSeconds: number
  maxSeconds: number
}

const fail = (what: string) => configurationError(`latchkey: oauthServer clientIdMetadataDocuments${what}`)

export function resolveDocuments(given: boolean | ClientIdMetadataDocumentOptions | undefined): ResolvedDocuments | undefined {
  if (!given) return undefined
  const options = given === true ? {} : given
  const whole = (value: number | undefined, fallback: number, where: string, max: number) => {
    if (value === undefined) return fallback
    if (!Number.isInteger(value) || value < 1 || value > max) throw fail(`.${where} must be a whole number from 1 to ${max}, got ${JSON.stringify(value)}`)
    return value
  }
  if (options.allowedHosts !== undefined && (!Array.isArray(options.allowedHosts) || options.allowedHosts.some((h) => typeof h !== 'string' || h !== h.toLowerCase() || !h))) {
    throw fail('.allowedHosts must be a list of lower-case host names, such as ["client.example.com"]')
  }
  const minSeconds = whole(options.cacheSeconds?.min, 60, 'cacheSeconds.min', 86400)
  const maxSeconds = whole(options.cacheSeconds?.max, 86400, 'cacheSeconds.max', 7 * 86400)
  if (minSeconds > maxSeconds) throw fail('.cacheSeconds.min must not be above cacheSeconds.max')
  if (options.unsafeTesting !== undefined && options.unsafeTesting?.allowLoopback !== true) throw fail('.unsafeTesting must be { allowLoopback: true, ca? }, for tests only')
  return {
    allowedHosts: options.allowedHosts,
    limits: {
      maxBytes: whole(options.maxBytes, 5120, 'maxBytes', 65536),
      timeoutMs: whole(options.timeoutMs, 3000, 'timeoutMs', 30000),
      allowLoopback: options.unsafeTesting?.allowLoopback === true,
      ...(options.unsafeTesting?.ca ? { ca: options.unsafeTesting.ca } : {}),
    },
    minSeconds,
    maxSeconds,
  }
}

export interface RegistrationOptions {
  /** Anyone may register a client (what MCP clients expect of a public server). */
  open?: boolean
  /** Only a request with `Authorization: Bearer <this>` may register (RFC 7591 §3); at least 32 characters. */
  initialAccessToken?: string
}

export interface ResolvedRegistration {
  /** SHA-256 of the initial access token, hex; absent when open. */
  tokenHash?: string
}

export function resolveRegistration(given: RegistrationOptions | undefined): ResolvedRegistration | undefined {
  if (given === undefined) return undefined
  const fail = (what: string) => configurationError(`latchkey: oauthServer registration ${what}`)
  if (!given || typeof given !== 'object') throw fail('must be { open: true } or { initialAccessToken }, or left out to keep registration off')
  const { open, initialAccessToken } = given
  if (initialAccessToken !== undefined && (typeof initialAccessToken !== 'string' || initialAccessToken.length < 32)) throw fail('.initialAccessToken must be a string of at least 32 characters (openssl rand -base64 32)')
  if (open !== true && initialAccessToken === undefined) throw fail('must say open: true, or give an initialAccessToken; leave registration out to keep it off')
  if (open === true && initialAccessToken !== undefined) throw fail('takes open: true or an initialAccessToken, not both')
  return initialAccessToken === undefined ? {} : { tokenHash: secretHash(initialAccessToken) }
}

