/**
 * The `.env` file the CLI reads before `migrate` and `doctor`, as the app's own start-up would
 * (`npx latchkey secret` writes AUTH_SECRET there). Our own small reader of the usual form:
 *
 *   # a comment
 *   export NAME=value          `export ` is allowed and ignored; spaces around = are trimmed
 *   NAME=value # note          unquoted: trimmed, up to a # at its start or after a space (a#b stays)
 *   NAME="a\nb \"c\""          double quotes: \n \r \t \\ \" are escapes; may span lines
 *   NAME='as $written'         single quotes: taken as written; may span lines
 *
 * No `${VAR}` expansion. A variable already set in the environment is never replaced.
 */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'

export interface ParsedEnv {
  values: Record<string, string>
  /** One per line that is not of the form, saying which line and what is wrong; the line is skipped. */
  problems: string[]
}

const assignment = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/s
const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', '"': '"' }

/** Reads the text of a .env file; a later line for the same name wins. */
export function parseEnv(text: string): ParsedEnv {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  const values: Record<string, string> = {}
  const problems: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (/^\s*(#|$)/.test(line)) continue
    const number = i + 1
    const match = assignment.exec(line)
    if (!match) {
      problems.push(`line ${number}: expected NAME=value`)
      continue
    }
    const [, name, rest] = match as unknown as [string, string, string]
    const quote = rest[0]
    if (quote !== '"' && quote !== "'") {
      values[name] = rest.replace(/(^|\s+)#.*$/, '').trim()
      continue
    }
    // A quoted value ends at its closing quote, on this line or a later one.
    let body = rest.slice(1)
    let end = closing(body, quote)
    while (end < 0 && i + 1 < lines.length) {
      body += `\n${lines[++i]}`
      end = closing(body, quote)
    }
    if (end < 0) {
      problems.push(`line ${number}: the ${quote === '"' ? 'double' : 'single'} quote is never closed`)
      continue
    }
    if (!/^\s*(#.*)?$/.test(body.slice(end + 1))) {
      problems.push(`line ${number}: text after the closing quote`)
      continue
    }
    const raw = body.slice(0, end)
    values[name] = quote === "'" ? raw : raw.replace(/\\(.)/gs, (all, c: string) => escapes[c] ?? all)
  }
  return { values, problems }
}

/** The index of the quote that closes `body`, or -1; in double quotes a backslash escapes the next character. */
function closing(body: string, quote: string): number {
  for (let i = 0; i < body.length; i++) {
    if (quote === '"' && body[i] === '\\') i++
    else if (body[i] === quote) return i
  }
  return -1
}

export interface LoadedEnv {
  /** The absolute path read. */
  file: string
  /** The names set from the file. */
  set: string[]
  /** The names the file has but the environment set already, so kept as they were. */
  kept: string[]
  problems: string[]
}

/**
 * Sets into `env` what the file at `path` has and `env` lacks. Answers null when the file does not
 * exist and `required` is false (no .env is fine); other read errors are thrown.
 */
export async function loadEnvFile(path: string, env: Record<string, string | undefined>, required: boolean): Promise<LoadedEnv | null> {
  const file = resolve(path)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !required) return null
    throw error
  }
  const { values, problems } = parseEnv(text)
  const set: string[] = []
  const kept: string[] = []
  for (const [name, value] of Object.entries(values)) {
    if (env[name] !== undefined) {
      kept.push(name)
    } else {
      env[name] = value
      set.push(name)
    }
  }
  return { file, set, kept, problems }
}

/** The one line that says what was read: names only, never a value. */
export function describeLoaded({ file, set, kept }: LoadedEnv): string {
  const parts = [set.length ? `set ${set.join(', ')}` : 'set nothing']
  if (kept.length) parts.push(`kept ${kept.join(', ')} as the environment has ${kept.length === 1 ? 'it' : 'them'}`)
  return `latchkey: read ${file}: ${parts.join('; ')}`
}
