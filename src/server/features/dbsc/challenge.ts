/**
 * DBSC challenges: random, short, bound to one session (by a digest of its cookie) and one
 * purpose, and single-use across servers: each has a one-time record in the store, consumed by
 * the proof that signs it, as passkey challenges are. A new challenge replaces the session's
 * outstanding one for that purpose, as a browser keeps only the latest.
 */
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'
import { hmacHex, randomToken, sha256Hex } from '../../kernel/crypto.js'
import { storeOneTimeRecord } from '../../kernel/one-time-secrets.js'

export type ChallengePurpose = 'register' | 'refresh'

/** A proof must arrive within this long of its challenge. */
const lifetimeMs = 5 * 60_000

const need = 'device-bound sessions'
const recordIdentifier = async (purpose: ChallengePurpose, sessionCookie: string) => `dbsc:${purpose}:${await sha256Hex(sessionCookie)}`
const recordToken = (secret: string, challenge: string) => hmacHex(secret, `dbsc-challenge:${challenge}`)

export async function issueDbscChallenge(ctx: Context, purpose: ChallengePurpose, sessionCookie: string): Promise<string> {
  const challenge = randomToken(24)
  const record = {
    identifier: await recordIdentifier(purpose, sessionCookie),
    token: await recordToken(ctx.config.secrets[0], challenge),
    expires: new Date(ctx.now + lifetimeMs),
  }
  // One outstanding challenge per session and purpose: asking again drops the one before.
  await storeOneTimeRecord(ctx, record, need, { replace: true })
  return challenge
}

/** True once: for a challenge issued for this session and purpose, unexpired, not used before. */
export async function consumeDbscChallenge(ctx: Context, purpose: ChallengePurpose, sessionCookie: string, challenge: string): Promise<boolean> {
  const adapter = useAdapter(ctx.config, ['useVerificationToken'], need)
  const identifier = await recordIdentifier(purpose, sessionCookie)
  for (const secret of ctx.config.secrets) {
    const record = await adapter.useVerificationToken({ identifier, token: await recordToken(secret, challenge) })
    if (record) return record.expires.getTime() > ctx.now
  }
  return false
}
