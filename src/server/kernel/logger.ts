/**
 * The server's logger: errors in full on the server, never secrets or tokens.
 *
 * Log text often carries request text (a provider id from the path, an OAuth
 * `error_description`, a library's message quoting what the browser sent). So every string
 * passed on, to the console or to the app's own logger, has its control characters escaped: a
 * newline or CR cannot forge a log line, NUL cannot cut one, an ANSI escape cannot restyle a
 * terminal, U+2028 and the bidi controls cannot break or reorder a line in a viewer. Errors are
 * passed on as escaped copies (same prototype and fields), message, stack and cause included;
 * the errors the routes threw stay as they were.
 */
import type { Logger } from '../../core/types.js'

export function createLogger(custom: Partial<Logger> | undefined): Logger {
  const error = custom?.error ?? printError
  const warn = custom?.warn ?? ((code: string) => console.warn(`[latchkey][warn] ${code}`))
  const debug = custom?.debug
  return {
    error: (e) => error(escapeError(e instanceof Error ? e : new Error(String(e)), new WeakMap())),
    warn: (code) => warn(escapeControl(String(code))),
    debug: debug ? (message, metadata) => debug(escapeControl(String(message)), escapeValue(metadata, new WeakMap())) : () => {},
  }
}

function printError(error: Error): void {
  console.error(`[latchkey][error] ${error.name}: ${error.message}`, error.cause ? { cause: describe(error.cause) } : '')
}

function describe(cause: unknown): string {
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)
}

/** C0 and C1 controls (CR, LF, NUL, ESC, DEL…), the line and paragraph separators, and the bidi controls. */
const control = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu
const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** The text with each control character written as an escape (`\n`, `\r`, `\t`, else `\uXXXX`). */
export function escapeControl(text: string): string {
  return text.replace(control, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

type Seen = WeakMap<object, unknown>

/** A copy of `error` with every string in it escaped; the stack keeps its frame lines. */
function escapeError(error: Error, seen: Seen): Error {
  const done = seen.get(error)
  if (done) return done as Error
  const copy = Object.create(Object.getPrototypeOf(error)) as Error
  seen.set(error, copy)
  const name = String(error.name)
  const message = String(error.message)
  const stack = error.stack
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(error))) {
    if ('value' in descriptor) descriptor.value = escapeValue(descriptor.value, seen)
    Object.defineProperty(copy, key, descriptor)
  }
  define(copy, 'name', escapeControl(name))
  define(copy, 'message', escapeControl(message))
  if (typeof stack === 'string') define(copy, 'stack', escapeStack(stack, message ? `${name}: ${message}` : name))
  return copy
}

function define(target: object, key: string, value: string): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: false, configurable: true })
}

/**
 * The stack's head (`name: message`, which may hold request text) is escaped whole; the frame
 * lines V8 appends after it keep their line breaks. A stack whose head no longer matches (the
 * message changed after it was read) is escaped except for breaks before frame lines.
 */
function escapeStack(stack: string, head: string): string {
  const start = stack.startsWith(head) ? head.length : 0
  return escapeControl(stack.slice(0, start)) + stack.slice(start).split(/\n(?= +at )/).map(escapeControl).join('\n')
}

/** Strings escaped, errors, arrays and plain objects copied with their strings escaped, the rest as is. */
function escapeValue(value: unknown, seen: Seen): unknown {
  if (typeof value === 'string') return escapeControl(value)
  if (!value || typeof value !== 'object') return value
  if (value instanceof Error) return escapeError(value, seen)
  if (seen.has(value)) return seen.get(value)
  if (Array.isArray(value)) {
    const copy: unknown[] = []
    seen.set(value, copy)
    for (const item of value) copy.push(escapeValue(item, seen))
    return copy
  }
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return value
  const copy: Record<string, unknown> = {}
  seen.set(value, copy)
  for (const [key, item] of Object.entries(value)) copy[escapeControl(key)] = escapeValue(item, seen)
  return copy
}
