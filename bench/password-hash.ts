/**
 * `npm run bench -- password-hash`: what one password hash and one verify cost with latchkey's
 * default scrypt parameters (DEFAULT_SCRYPT), through node:crypto (median of 10) and through the
 * pure-JS @noble/hashes fallback that Web-only runtimes use (median of 3), beside better-auth's
 * own password hashing (better-auth/crypto, node:crypto scrypt too) measured in the same run.
 * The target is 50-100 ms per hash on this machine, as OWASP's password storage guidance aims.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { hashPassword as betterAuthHash, verifyPassword as betterAuthVerify } from 'better-auth/crypto'
import { DEFAULT_SCRYPT, deriveKey, hashPassword, parsePhc, verifyPassword } from '../src/server/features/password/hash.js'

const password = 'correct horse battery staple'
const nodeRuns = Number(process.env.BENCH_HASH_RUNS ?? 10)
const nobleRuns = 3

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** A line that says what runs now: rewritten in place on a terminal, one line each in a log. */
function progress(line: string): void {
  if (process.stdout.isTTY) process.stdout.write(`\r${line.padEnd(60)}\r`)
  else if (line) console.log(line)
}

type Arm = { label: string; once: () => Promise<boolean> }

/**
 * Median milliseconds per arm over `runs` cycles, after one warm-up call each. The arms take turns
 * call by call (the order reversed every cycle), so a slow moment of a shared machine hits every
 * arm alike and the ratios hold even when the absolute figures move. Every result is checked.
 */
async function alternate(runs: number, arms: Arm[]): Promise<number[]> {
  progress(`  ... ${arms.map((arm) => arm.label).join(', ')} (${runs} runs each)`)
  const times = arms.map(() => [] as number[])
  const call = async (index: number, record: boolean) => {
    const start = performance.now()
    const ok = await arms[index].once()
    if (record) times[index].push(performance.now() - start)
    if (!ok) throw new Error(`${arms[index].label}: wrong result`)
  }
  for (let i = 0; i < arms.length; i++) await call(i, false)
  for (let cycle = 0; cycle < runs; cycle++) {
    const order = arms.map((_, i) => i)
    if (cycle % 2) order.reverse()
    for (const i of order) await call(i, true)
  }
  progress('')
  return times.map(median)
}

/** better-auth's scrypt parameters, read from the code it runs (@better-auth/utils/password, node build). */
function betterAuthParams(): string {
  const require = createRequire(createRequire(import.meta.url).resolve('better-auth/crypto'))
  const source = readFileSync(require.resolve('@better-auth/utils/password'), 'utf8')
  const value = (name: string) => /\bconfig\s*=\s*\{([^}]*)\}/.exec(source)?.[1].match(new RegExp(`\\b${name}:\\s*(\\d+)`))?.[1] ?? '?'
  const N = Number(value('N'))
  return `N=2^${Math.log2(N)} (${N}), r=${value('r')}, p=${value('p')}, ${value('dkLen')}-byte key, ${(128 * N * Number(value('r'))) / 2 ** 20} MiB`
}

export async function run(): Promise<void> {
  const { ln, r, p } = DEFAULT_SCRYPT
  console.log(`Password hashing, load average ${loadavg()[0].toFixed(2)} at the start (one hash at a time)`)
  console.log(`  latchkey:    scrypt ln=${ln} (N=${2 ** ln}), r=${r}, p=${p}, 16-byte salt, 32-byte key, ${(128 * 2 ** ln * r) / 2 ** 20} MiB`)
  console.log(`  better-auth: scrypt ${betterAuthParams()} (better-auth/crypto hashPassword)`)

  const stored = await hashPassword(password)
  const peerStored = await betterAuthHash(password)
  const [nodeHash, peerHash, nodeVerify, peerVerify] = await alternate(nodeRuns, [
    { label: 'latchkey hash', once: async () => (await hashPassword(password)).startsWith('$scrypt$ln=') },
    { label: 'better-auth hash', once: async () => (await betterAuthHash(password)).includes(':') },
    { label: 'latchkey verify', once: async () => (await verifyPassword(password, stored)).ok },
    { label: 'better-auth verify', once: () => betterAuthVerify({ hash: peerStored, password }) },
  ])

  // The fallback, forced: a hash is one derivation with a fresh salt, a verify one with the stored salt.
  const { salt, hash } = parsePhc(stored)!
  const storedHex = Buffer.from(hash).toString('hex')
  const [nobleHash, nobleVerify] = await alternate(nobleRuns, [
    { label: 'latchkey hash, @noble/hashes', once: async () => (await deriveKey(password, crypto.getRandomValues(new Uint8Array(16)), DEFAULT_SCRYPT, { impl: 'noble' })).length === 32 },
    { label: 'latchkey verify, @noble/hashes', once: async () => Buffer.from(await deriveKey(password, salt, DEFAULT_SCRYPT, { impl: 'noble' })).toString('hex') === storedHex },
  ])

  const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`
  console.log(`  ${''.padEnd(42)} ${'hash'.padStart(10)} ${'verify'.padStart(10)}`)
  console.log(`  ${`latchkey, node:crypto (median of ${nodeRuns})`.padEnd(42)} ${ms(nodeHash)} ${ms(nodeVerify)}`)
  console.log(`  ${`latchkey, @noble/hashes (median of ${nobleRuns})`.padEnd(42)} ${ms(nobleHash)} ${ms(nobleVerify)}`)
  console.log(`  ${`better-auth, node:crypto (median of ${nodeRuns})`.padEnd(42)} ${ms(peerHash)} ${ms(peerVerify)}`)
  const inTarget = nodeHash >= 50 && nodeHash <= 100 ? 'inside' : 'OUTSIDE'
  console.log(`  latchkey / better-auth: ${(nodeHash / peerHash).toFixed(2)}x per hash, ${(nodeVerify / peerVerify).toFixed(2)}x per verify`)
  console.log(`  fallback / node:crypto: ${(nobleHash / nodeHash).toFixed(2)}x per hash`)
  console.log(`  a latchkey hash takes ${nodeHash.toFixed(1)} ms: ${inTarget} the 50-100 ms target`)
}
