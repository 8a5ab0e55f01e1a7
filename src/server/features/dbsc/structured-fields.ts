/**
 * The few RFC 9651 structured-field shapes DBSC uses: strings (with parameters, which the spec
 * says to ignore on what we read) and the registration header's inner list.
 */

/** An sf-string: printable ASCII only, with `\` and `"` escaped. */
export function sfString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new TypeError('A structured-field string holds printable ASCII only')
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`
}

/** The string of an sf-string item (`"…"` then any `;key=value` parameters), or null when the value is not one. */
export function parseSfString(header: string | null): string | null {
  if (header === null) return null
  const text = header.trim()
  if (!text.startsWith('"')) return null
  let out = ''
  for (let i = 1; i < text.length; i++) {
    const c = text[i]
    if (c === '\\') {
      const next = text[++i]
      if (next !== '"' && next !== '\\') return null
      out += next
    } else if (c === '"') {
      const rest = text.slice(i + 1)
      // Only parameters may follow the string.
      return rest === '' || /^(;\s*[a-z*][a-z0-9_.*-]*(=[^;]*)?)*$/.test(rest) ? out : null
    } else if (c < ' ' || c > '~') {
      return null
    } else {
      out += c
    }
  }
  return null
}

/** `Secure-Session-Registration`: `(ES256 RS256);path="…";challenge="…"`. */
export function registrationHeader(path: string, challenge: string, algorithms: readonly string[] = ['ES256', 'RS256']): string {
  return `(${algorithms.join(' ')});path=${sfString(path)};challenge=${sfString(challenge)}`
}

/** `Secure-Session-Challenge`: `"challenge";id="session id"`. */
export function challengeHeader(challenge: string, sessionId: string): string {
  return `${sfString(challenge)};id=${sfString(sessionId)}`
}
