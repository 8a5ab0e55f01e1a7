/**
 * Whether a password is in a breach corpus, through the k-anonymity range API of Pwned Passwords:
 * only the first 5 hex digits of its SHA-1 leave the server; the answer lists every known suffix
 * under that prefix (`SUFFIX:COUNT` lines, padded with count-0 lines so its size says nothing),
 * and the match happens here. When the check cannot be made, `onError` decides: 'allow' (the
 * default) lets the password through with a logged warning, 'deny' refuses with a 503.
 */
import { AuthError } from '../../../core/errors.js'

export interface BreachCheckOptions {
  /** The range endpoint; the 5-digit prefix is appended. Default: Pwned Passwords. */
  endpoint?: string
  /** When the check cannot be made: 'allow' the password (logged) or 'deny' the request (503). Default 'allow'. */
  onError?: 'allow' | 'deny'
  /** Milliseconds for the whole answer, body included. Default 2000. */
  timeout?: number
  /** The fetch to use (tests, proxies). Default: the global fetch. */
  fetch?: typeof fetch
}

export const DEFAULT_BREACH_ENDPOINT = 'https://api.pwnedpasswords.com/range/'
const DEFAULT_TIMEOUT = 2000
/** The only thing logged on failure: never the password, its hash or the prefix. */
export const BREACH_CHECK_UNREACHABLE = 'password-breach-check-unreachable'

const answerLine = /^([0-9A-Fa-f]{35}):([0-9]+)$/

/** True when the password is in the corpus (a count above 0); false when not, or unreachable under 'allow'. */
export async function isBreached(password: string, options: BreachCheckOptions = {}, logger: { warn(code: string): void }): Promise<boolean> {
  const digest = await sha1Hex(password)
  const prefix = digest.slice(0, 5)
  const suffix = digest.slice(5)
  const count = await rangeCount(prefix, suffix, options)
  if (count !== undefined) return count > 0
  if (options.onError === 'deny') {
    throw new AuthError('ProviderUnreachable', 'The breached-password check is unreachable, so no password can be accepted right now; try again later.', { status: 503 })
  }
  logger.warn(BREACH_CHECK_UNREACHABLE)
  return false
}

/** The count listed for `suffix` (0 when absent or padding), or undefined when no usable answer came. */
async function rangeCount(prefix: string, suffix: string, options: BreachCheckOptions): Promise<number | undefined> {
  const doFetch = options.fetch ?? fetch
  try {
    const response = await doFetch(`${options.endpoint ?? DEFAULT_BREACH_ENDPOINT}${prefix}`, {
      headers: { 'Add-Padding': 'true' },
      signal: AbortSignal.timeout(options.timeout ?? DEFAULT_TIMEOUT),
    })
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {})
      return undefined
    }
    return countIn(await response.text(), suffix)
  } catch {
    return undefined
  }
}

/** The suffix's count in a range answer, or undefined when the answer is not one. */
function countIn(body: string, suffix: string): number | undefined {
  let count = 0
  let lines = 0
  for (const line of body.split(/\r?\n/)) {
    if (line === '') continue
    const match = answerLine.exec(line)
    if (!match) return undefined
    lines++
    if (match[1].toUpperCase() === suffix) count = Number(match[2])
  }
  // A real answer always lists suffixes (hundreds, more with padding); an empty one is broken.
  return lines > 0 ? count : undefined
}

async function sha1Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text)))
  let hex = ''
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0')
  return hex.toUpperCase()
}
