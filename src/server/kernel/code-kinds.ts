/**
 * Kinds of one-time code, the ones a person types (from an email, a text message). A kind is
 * declared once, with its purpose, length, alphabet, lifetime and tries; one-time-secrets.ts
 * stores and spends its codes.
 */

export interface CodeKind {
  /**
   * What the codes are for (`password-reset`, `mfa-tries`): a record is keyed `<purpose>:<subject>`,
   * so a code made for one purpose never works for another. No `:` in it.
   */
  purpose: string
  /**
   * The subject alone keys the record (email sign-in's codes: the address, as Auth.js keys the
   * link's token). Only for subjects that never hold a `:`, so none can name another purpose's record.
   */
  bare?: boolean
  /** Characters in a code. */
  length: number
  /** The characters it is drawn from, each once. */
  alphabet: string
  /** Lifetime, in seconds. */
  maxAge: number
  /** Entries that burn a code, counted atomically in the store. */
  maxAttempts: number
  /** What needs the adapter's code methods, for the error that names them missing ("email codes"). */
  needFor: string
  /** Where the person reads the code ("the email"), for the refusal of an empty entry. */
  sentIn?: string
}

export const digits = '0123456789'

/** What is wrong with a kind's length, alphabet, lifetime or tries, if anything (each message names its field). */
export function checkCodeKind({ length, alphabet, maxAge, maxAttempts }: Pick<CodeKind, 'length' | 'alphabet' | 'maxAge' | 'maxAttempts'>): string | undefined {
  const distinct = new Set(alphabet).size
  if (!Number.isInteger(length) || length < 4 || length > 32) return `length must be a whole number from 4 to 32, got ${length}`
  if (distinct < 2 || distinct !== [...alphabet].length) return `alphabet must hold at least 2 characters, each once, got "${alphabet}"`
  // A guesser gets maxAttempts tries per code: keep that below one in ten thousand.
  if (distinct ** length < maxAttempts * 10_000) return `length ${length} over ${distinct} characters is guessed too easily in ${maxAttempts} tries; make it longer`
  if (!(maxAge > 0)) return `maxAge must be a number of seconds above 0, got ${maxAge}`
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) return `maxAttempts must be a whole number >= 1, got ${maxAttempts}`
}

/** A new code: each character uniform over the alphabet (rejection sampling, no modulo bias). */
export function newCode({ length, alphabet }: Pick<CodeKind, 'length' | 'alphabet'>): string {
  const chars = [...alphabet]
  const limit = 256 - (256 % chars.length)
  let code = ''
  while (code.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && code.length < length) code += chars[byte % chars.length]
    }
  }
  return code
}

/** What a person typed, as codes are made: no spaces or dashes, and upper case where the alphabet has no lower case. */
export function normalizeCode(input: string, alphabet: string): string {
  const plain = input.replace(/[\s-]/g, '')
  return alphabet === alphabet.toUpperCase() ? plain.toUpperCase() : plain
}
