/**
 * One-time codes kept in the contract's verification tokens, for an adapter without latchkey's
 * code methods (Auth.js's): `createVerificationCode` and `useVerificationCode` written over
 * `createVerificationToken` and `useVerificationToken`, with the tries still counted in the store.
 *
 * A code of `identifier` made for `maxAttempts` tries is that many try tokens
 * (`code-tries:<identifier>`, tokens `1` to `maxAttempts`) and the code's own token
 * (`code:<identifier>`). An attempt first spends one try token (`useVerificationToken` deletes
 * what it returns, one winner under concurrency), and only then looks for the code: a code is
 * tested at most as many times as it has try tokens, whatever the number of servers or requests.
 *
 * A new code must not bring an older one back to life with its fresh tries, yet a store of tokens
 * can only be asked for a token it is given. So every code belongs to a generation, its expiry
 * in whole seconds (what every store keeps), which its try tokens carry as their own expiry: the
 * code's token is the SHA-256 of its generation and hash, and an attempt looks only under the
 * generation of the try it spent. A new code first spends the old tries, and takes a generation
 * above theirs; the older code's row, never looked for again, stays until expired tokens are purged.
 *
 * What the native methods do and this cannot: keep a code in one row (here up to `maxAttempts` + 2),
 * delete a replaced code at once, and purge expired codes (`deleteVerificationCodes`); an attempt
 * here is up to `maxAttempts` + 1 round trips, lowest try first.
 */
import type { Adapter, VerificationCode, VerificationCodeAttempt } from '../../core/types.js'
import { sha256Hex } from './crypto.js'

type TokenMethods = Required<Pick<Adapter, 'createVerificationToken' | 'useVerificationToken'>>
export type CodeMethods = Required<Pick<Adapter, 'createVerificationCode' | 'useVerificationCode'>>

/** Whose records these are: no other one-time record's identifier starts so (their prefixes are the features'). */
const codeKey = (identifier: string) => `code:${identifier}`
const triesKey = (identifier: string) => `code-tries:${identifier}`

/** A generation: whole seconds, as every store keeps them (some keep no milliseconds, some hand back text). */
const generationOf = (expires: Date | string) => Math.round(new Date(expires).getTime() / 1000)
const codeToken = (generation: number, hash: string) => sha256Hex(`${generation}|${hash}`)
const tryTokens = (maxAttempts: number) => Array.from({ length: maxAttempts }, (_, i) => String(i + 1))

/** Beside the tries, a mark the attempt that spent the last one leaves: later attempts answer `exhausted`, not `none`. */
const spentMark = 'spent'

/** A write whose failure leaves fewer tries, never more: awaited, its error dropped. */
const quietly = (write: () => unknown) => Promise.resolve().then(write).catch(() => undefined)

/** The code methods over `adapter`'s verification tokens, for codes of `maxAttempts` tries; `now` is the configured clock. */
export function codesInTokens(adapter: TokenMethods, maxAttempts: number, now: () => number): CodeMethods {
  const tries = (identifier: string) => ({ identifier: triesKey(identifier) })
  const put = (identifier: string, token: string, expires: Date) => adapter.createVerificationToken({ ...tries(identifier), token, expires })
  return {
    async createVerificationCode({ identifier, code, expires }: VerificationCode) {
      const old = await Promise.all([...tryTokens(maxAttempts), spentMark].map((token) => adapter.useVerificationToken({ ...tries(identifier), token })))
      // Later than the one it replaces, even within its second (its expiry then a second later).
      const last = Math.max(0, ...old.flatMap((record) => (record ? [generationOf(record.expires)] : [])))
      const generation = Math.max(generationOf(expires), last + 1)
      const at = new Date(generation * 1000)
      await adapter.createVerificationToken({ identifier: codeKey(identifier), token: await codeToken(generation, code), expires: at })
      // A try that another new code of this address holds already (a store keyed by identifier and
      // token refuses the second) is one fewer: never one more.
      await Promise.all(tryTokens(maxAttempts).map((token) => quietly(() => put(identifier, token, at))))
    },
    async useVerificationCode({ identifier, codes }): Promise<VerificationCodeAttempt> {
      // One at a time, lowest first: each attempt spends exactly one try, the next left.
      for (const [i, token] of tryTokens(maxAttempts).entries()) {
        const spent = await adapter.useVerificationToken({ ...tries(identifier), token })
        if (!spent) continue
        const generation = generationOf(spent.expires)
        for (const hash of codes) {
          const used = await adapter.useVerificationToken({ identifier: codeKey(identifier), token: await codeToken(generation, hash) })
          if (used) return { result: 'used', expires: new Date(used.expires) }
        }
        const attemptsLeft = maxAttempts - i - 1
        if (attemptsLeft === 0) await quietly(() => put(identifier, spentMark, new Date(spent.expires)))
        return { result: 'wrong', attemptsLeft }
      }
      // Reading the mark takes it: it is put back until it expires, when it is left deleted.
      const mark = await adapter.useVerificationToken({ ...tries(identifier), token: spentMark })
      if (!mark || new Date(mark.expires).getTime() <= now()) return { result: 'none' }
      await quietly(() => put(identifier, spentMark, new Date(mark.expires)))
      return { result: 'exhausted' }
    },
  }
}
