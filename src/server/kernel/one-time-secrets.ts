/**
 * The one place the server keeps one-time secrets: tokens (email links, WebAuthn and DBSC
 * challenges, pending second steps, upgrade markers), stored as the caller's HMAC or SHA-256, and
 * typed codes (code-kinds.ts), stored as HMACs keyed by purpose and subject, their tries counted
 * in the store. A request's first write also purges a bounded batch of expired tokens and of expired codes,
 * so the store stays bounded with no cron job. An adapter without `deleteVerificationTokens` or
 * `deleteVerificationCodes` (Auth.js's) purges nothing of that kind. An adapter without the code
 * methods (Auth.js's) keeps the codes in its verification tokens, their tries still counted
 * (codes-in-tokens.ts).
 */
import type { Adapter, VerificationToken } from '../../core/types.js'
import { AuthError } from '../../core/errors.js'
import { codeKeeping, useAdapter, useCodeMethods } from './adapter-methods.js'
import { newCode, normalizeCode, type CodeKind } from './code-kinds.js'
import type { Context } from './context.js'
import { hmacHex } from './crypto.js'
import { requestKey } from './state.js'

export { checkCodeKind, digits, type CodeKind } from './code-kinds.js'

/** Expired records one write deletes at most, of each table: a backlog is cleared over many writes, never by one slow one. */
export const purgeBatch = 100

/** A request that purged once (an email sign-in writes a token and a code) does not purge again. */
const purged = requestKey<true>('one-time records purged')

/** Deletes a bounded batch of expired tokens and of expired codes, once per request. */
function purgeExpired(ctx: Context): Promise<unknown> | undefined {
  if (purged.has(ctx)) return
  purged.set(ctx, true)
  const adapter = ctx.config.adapter as Adapter | undefined
  const filter = { expiredBefore: new Date(ctx.now), limit: purgeBatch }
  return Promise.all([adapter?.deleteVerificationTokens?.(filter), adapter?.deleteVerificationCodes?.(filter)])
}

// ---------------------------------------------------------------- tokens

/**
 * Stores `record` (its token already hashed by the caller). With `replace`, first drops the other
 * records of its identifier, so it is the only one outstanding (for identifiers that name one
 * session, never a shared one).
 */
export async function storeOneTimeRecord(ctx: Context, record: VerificationToken, needFor: string, options: { replace?: boolean } = {}): Promise<void> {
  const adapter: Adapter & Required<Pick<Adapter, 'createVerificationToken'>> = useAdapter(ctx.config, ['createVerificationToken'], needFor)
  const store = async () => {
    if (options.replace) await adapter.deleteVerificationTokens?.({ identifier: record.identifier })
    await adapter.createVerificationToken(record)
  }
  // The new record is not expired, so the purge may run beside the write.
  await Promise.all([purgeExpired(ctx), store()])
}

/**
 * An email's link and code are one secret in two forms: once either is used, the links of
 * `identifier` stop working too (where the adapter can drop them: latchkey's adapters can).
 */
export async function retireLinks(ctx: Context, identifier: string): Promise<void> {
  await ctx.config.adapter?.deleteVerificationTokens?.({ identifier })
}

// ---------------------------------------------------------------- codes

/** The record's key: `<purpose>:<subject>`, or the subject alone for a bare kind (which never holds a `:`). */
function codeIdentifier(kind: CodeKind, subject: string): string {
  if (!kind.bare) return `${kind.purpose}:${subject}`
  if (subject.includes(':')) throw new AuthError('InvalidRequest', `A ${kind.purpose} code's subject cannot hold a ":"`, { status: 400 })
  return subject
}

/**
 * Under the secret, so a leaked table cannot be searched for six digits without it. The label
 * is the one codes were first stored under (email's), so codes outstanding at an upgrade still match;
 * the identifier names the purpose and subject.
 */
const hashCode = (secret: string, identifier: string, code: string) => hmacHex(secret, `email-code|${identifier}|${code}`)

/** A new code of `kind` for `subject`, replacing its earlier one (and its count); answers it with its expiry. */
export async function issueCode(ctx: Context, kind: CodeKind, subject: string, expires = new Date(ctx.now + kind.maxAge * 1000)): Promise<{ code: string; expires: Date }> {
  const adapter = useCodeMethods(ctx.config, kind.maxAttempts, kind.needFor)
  const identifier = codeIdentifier(kind, subject)
  const code = newCode(kind)
  const store = async () => adapter.createVerificationCode({ identifier, code: await hashCode(ctx.config.secrets[0], identifier, code), expires })
  await Promise.all([purgeExpired(ctx), store()])
  return { code, expires }
}

/** The code half of a used link: replaced by one nobody is told, expired already. */
export async function retireCode(ctx: Context, kind: CodeKind, subject: string): Promise<void> {
  // An adapter that keeps no codes sent none.
  if (codeKeeping(ctx.config.adapter)) await issueCode(ctx, kind, subject, new Date(ctx.now))
}

/** One attempt at `subject`'s code; returns when it is right, else throws InvalidCode, CodeExpired or TooManyAttempts. */
export async function spendCode(ctx: Context, kind: CodeKind, subject: string, input: unknown): Promise<void> {
  if (typeof input !== 'string' || !input.trim()) {
    throw new AuthError('InvalidCode', `Expected the code from ${kind.sentIn ?? 'the message'} in the "code" field`, { status: 400 })
  }
  const identifier = codeIdentifier(kind, subject)
  const code = normalizeCode(input, kind.alphabet)
  const adapter = useCodeMethods(ctx.config, kind.maxAttempts, kind.needFor)
  // Every secret in rotation, so a code sent before a rotation still works.
  const codes = await Promise.all(ctx.config.secrets.map((secret) => hashCode(secret, identifier, code)))
  const found = await adapter.useVerificationCode({ identifier, codes, maxAttempts: kind.maxAttempts })
  if (found.result === 'used') {
    if (found.expires.getTime() <= ctx.now) throw new AuthError('CodeExpired', 'The code has expired; ask for a new one', { status: 400 })
    return
  }
  if (found.result === 'exhausted' || (found.result === 'wrong' && found.attemptsLeft === 0)) {
    throw new AuthError('TooManyAttempts', 'Too many wrong codes: this one no longer works; ask for a new one', { status: 400 })
  }
  throw new AuthError('InvalidCode', 'The code is not right, or there is no code for this address', { status: 400 })
}

/**
 * Tries counted without a code to type (a second step's): `startCount` keeps a code nobody is
 * told, until `expires`; each `countTry` counts one attempt at it, atomically in the store.
 */
export async function startCount(ctx: Context, kind: CodeKind, subject: string, expires: Date): Promise<void> {
  await issueCode(ctx, kind, subject, expires)
}

/** Counts one try; false once `kind.maxAttempts` are spent (or the store holds no count: fail closed). */
export async function countTry(ctx: Context, kind: CodeKind, subject: string): Promise<boolean> {
  const adapter = useCodeMethods(ctx.config, kind.maxAttempts, kind.needFor)
  // A candidate no stored HMAC can equal: each call counts one attempt and uses nothing.
  const found = await adapter.useVerificationCode({ identifier: codeIdentifier(kind, subject), codes: ['-'], maxAttempts: kind.maxAttempts })
  return found.result === 'wrong'
}
