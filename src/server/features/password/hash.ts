/**
 * Password hashing with scrypt, stored as a PHC string that carries its own parameters:
 * `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (salt and hash in base64 without padding). node:crypto's
 * scrypt does the work where the runtime has it (Node, Bun, Deno: off the main thread, in libuv's
 * pool); elsewhere `@noble/hashes` computes the same bytes in plain JS. Passwords arrive already
 * normalized (policy.ts) and are hashed as UTF-8.
 */
import { AuthError, configurationError } from '../../../core/errors.js'
import { nodeCrypto } from '../../kernel/node-crypto.js'

/** scrypt's cost: N = 2^ln (CPU and memory), r (block size), p (parallelism). */
export interface ScryptParams {
  ln: number
  r: number
  p: number
}

/**
 * N=2^15, r=8, p=1 (32 MiB): 89-103 ms per hash with node:crypto on the project's 2-core machine
 * under other work (`npm run bench -- password-hash`), inside the 50-100 ms a sign-in may spend.
 * OWASP's scrypt minimum (N=2^17) took 380-475 ms there, and 2^14 42-52 ms. Raising these later is
 * safe: each stored hash keeps its own and is re-made at its next sign-in (`rehash`).
 */
export const DEFAULT_SCRYPT: Readonly<ScryptParams> = Object.freeze({ ln: 15, r: 8, p: 1 })

const SALT_BYTES = 16
const KEY_BYTES = 32
/** Stored hashes outside these bounds are refused unread: a tampered row must not allocate gigabytes or run for minutes. */
const MAX_MEMORY = 1024 ** 3
/** N * r * p: 64 times OWASP's scrypt minimum (2^17 * 8 * 1). */
const MAX_WORK = 2 ** 26
const encoder = new TextEncoder()

export type ScryptImpl = 'node' | 'noble'

/** What is wrong with these parameters, or undefined. */
function paramsProblem({ ln, r, p }: ScryptParams): string | undefined {
  if (!Number.isInteger(ln) || ln < 1 || ln > 30) return `ln (log2 N) must be an integer from 1 to 30, got ${ln}`
  if (!Number.isInteger(r) || r < 1 || r > 64) return `r must be an integer from 1 to 64, got ${r}`
  if (!Number.isInteger(p) || p < 1 || p > 64) return `p must be an integer from 1 to 64, got ${p}`
  if (memoryOf({ ln, r, p }) > MAX_MEMORY) return `128 * 2^ln * r is ${memoryOf({ ln, r, p })} bytes, more than the 1 GiB allowed`
  if (2 ** ln * r * p > MAX_WORK) return `2^ln * r * p is ${2 ** ln * r * p}, more than the 2^26 allowed`
  return undefined
}

function memoryOf({ ln, r }: ScryptParams): number {
  return 128 * 2 ** ln * r
}

/** Enough for scrypt's V array and its p blocks, with room to spare (node's default of 32 MiB is too little for ln=15). */
function maxmemFor(params: ScryptParams): number {
  return 2 * memoryOf(params) + 128 * params.r * params.p + 1024 * 1024
}

type NodeScrypt = typeof import('node:crypto').scrypt
let nodeScrypt: Promise<NodeScrypt | undefined> | undefined

/** node:crypto's scrypt, found once: `getBuiltinModule` (Node 20.16+, Bun, Deno), else a dynamic import (older Node). */
function findNodeScrypt(): Promise<NodeScrypt | undefined> {
  nodeScrypt ??= (async () => {
    if (nodeCrypto?.scrypt) return nodeCrypto.scrypt
    try {
      // A specifier in a variable, so bundlers for Web-only runtimes leave the import alone.
      const id = 'node:crypto'
      const mod = (await import(/* @vite-ignore */ id)) as typeof import('node:crypto')
      return typeof mod.scrypt === 'function' ? mod.scrypt : undefined
    } catch {
      return undefined
    }
  })()
  return nodeScrypt
}

/**
 * scrypt of `password` (as UTF-8) with `salt`, `dkLen` bytes long. `impl` forces one implementation
 * (the tests compare them); without it node:crypto where present, else @noble/hashes.
 */
export async function deriveKey(password: string, salt: Uint8Array, params: ScryptParams, { dkLen = KEY_BYTES, impl }: { dkLen?: number; impl?: ScryptImpl } = {}): Promise<Uint8Array> {
  const N = 2 ** params.ln
  const { r, p } = params
  const maxmem = maxmemFor(params)
  const bytes = encoder.encode(password)
  const scrypt = impl === 'noble' ? undefined : await findNodeScrypt()
  if (impl === 'node' && !scrypt) throw new Error('node:crypto scrypt is not available in this runtime')
  if (!scrypt) {
    // Loaded only where node:crypto is missing (or a test asks): Node never pays for it.
    const { scryptAsync } = await import('@noble/hashes/scrypt.js')
    return scryptAsync(bytes, salt, { N, r, p, dkLen, maxmem })
  }
  return new Promise((resolve, reject) => {
    scrypt(bytes, salt, dkLen, { N, r, p, maxmem }, (error, key) => (error ? reject(error) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength))))
  })
}

/** A PHC string for `password` with a fresh 16-byte salt and a 32-byte key. */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  requireString(password)
  const problem = paramsProblem(params)
  if (problem) throw configurationError(`The password hashing parameters are out of range: ${problem}. Leave them out for the defaults (ln=${DEFAULT_SCRYPT.ln}, r=${DEFAULT_SCRYPT.r}, p=${DEFAULT_SCRYPT.p}).`)
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES))
  const key = await deriveKey(password, salt, params)
  return format(params, salt, key)
}

/**
 * Whether `password` matches `stored`, and whether `stored` should be re-made with the current
 * parameters (`rehash`, only when it matched: its ln, r, p, salt or key length differ from what
 * `hashPassword` writes now). Malformed or foreign stored data is a plain miss.
 */
export async function verifyPassword(password: string, stored: string, current: ScryptParams = DEFAULT_SCRYPT): Promise<{ ok: boolean; rehash: boolean }> {
  requireString(password)
  if (typeof stored !== 'string') throw new TypeError(`verifyPassword: expected the stored hash as a string, got ${stored === null ? 'null' : typeof stored}`)
  const parsed = parsePhc(stored)
  if (!parsed) return { ok: false, rehash: false }
  const key = await deriveKey(password, parsed.salt, parsed.params, { dkLen: parsed.hash.length })
  const ok = constantTimeEqual(key, parsed.hash)
  const outdated =
    parsed.params.ln !== current.ln || parsed.params.r !== current.r || parsed.params.p !== current.p || parsed.salt.length !== SALT_BYTES || parsed.hash.length !== KEY_BYTES
  return { ok, rehash: ok && outdated }
}

const dummies = new Map<string, string>()

/**
 * The work of one `verifyPassword` with the current parameters, for an address with no account,
 * so the answer takes as long as for one that has. Always a miss.
 */
export async function dummyVerify(password: string, current: ScryptParams = DEFAULT_SCRYPT): Promise<{ ok: false; rehash: false }> {
  const id = `${current.ln},${current.r},${current.p}`
  let dummy = dummies.get(id)
  if (!dummy) {
    // Random bytes in place of a key: no password derives them, and making it costs no hash.
    dummy = format(current, crypto.getRandomValues(new Uint8Array(SALT_BYTES)), crypto.getRandomValues(new Uint8Array(KEY_BYTES)))
    dummies.set(id, dummy)
  }
  await verifyPassword(password, dummy, current)
  return { ok: false, rehash: false }
}

function requireString(password: unknown): asserts password is string {
  if (typeof password !== 'string') throw new AuthError('InvalidRequest', `Expected the password as a string, got ${password === null ? 'null' : typeof password}`, { status: 400 })
}

function format({ ln, r, p }: ScryptParams, salt: Uint8Array, key: Uint8Array): string {
  return `$scrypt$ln=${ln},r=${r},p=${p}$${toBase64(salt)}$${toBase64(key)}`
}

const phc = /^\$scrypt\$ln=(0|[1-9][0-9]{0,2}),r=(0|[1-9][0-9]{0,2}),p=(0|[1-9][0-9]{0,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/

/** The parts of a PHC scrypt string, or undefined for anything not exactly in latchkey's form and bounds. */
export function parsePhc(stored: string): { params: ScryptParams; salt: Uint8Array; hash: Uint8Array } | undefined {
  const match = phc.exec(stored)
  if (!match) return undefined
  const params = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) }
  if (paramsProblem(params)) return undefined
  const salt = fromBase64(match[4])
  const hash = fromBase64(match[5])
  // A key shorter than ours is refused: scrypt's shorter output is a prefix of the longer, so a truncated hash would still match.
  if (!salt || !hash || salt.length < 8 || salt.length > 64 || hash.length < KEY_BYTES || hash.length > 64) return undefined
  return { params, salt, hash }
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/=+$/, '')
}

/** Strict unpadded base64: only the canonical spelling of some bytes decodes (no stray trailing bits). */
function fromBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined
  let binary: string
  try {
    binary = atob(text + '='.repeat((4 - (text.length % 4)) % 4))
  } catch {
    return undefined
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0))
  return toBase64(bytes) === text ? bytes : undefined
}

/** Equal-length comparison whose time does not depend on where the bytes differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i]
  return diff === 0
}
