/**
 * Log injection: whatever reaches the log from a request has its control characters escaped,
 * in the default console logger and in the app's own, in messages, stacks and causes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AuthError } from '../../src/core/errors.js'
import { createLogger, escapeControl } from '../../src/server/kernel/logger.js'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

/** CR, LF, NUL, an ANSI colour escape, U+2028, and a bidi override. */
const hostile = 'idp\r\n[latchkey][error] forged\u0000\u001b[31mred\u2028line\u202eevil'
/** Any character a log line must not carry raw. */
const raw = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/

afterEach(() => vi.restoreAllMocks())

describe('escapeControl', () => {
  it('writes each control character as an escape and leaves the rest alone', () => {
    expect(escapeControl(hostile)).toBe('idp\\r\\n[latchkey][error] forged\\u0000\\u001b[31mred\\u2028line\\u202eevil')
    expect(escapeControl('tab\there, DEL\u007f, C1\u0085')).toBe('tab\\there, DEL\\u007f, C1\\u0085')
    expect(escapeControl('Ada Lovelace <ada@example.com> née Byron, 😀')).toBe('Ada Lovelace <ada@example.com> née Byron, 😀')
  })
})

describe('the logger', () => {
  it('escapes the app logger’s error message, name, stack and nested causes, keeping the error’s type and fields', () => {
    const error = vi.fn()
    const logger = createLogger({ error })
    const original = new AuthError('OAuthCallbackError', `Provider says ${hostile}`, { cause: new Error(`cause ${hostile}`, { cause: `root ${hostile}` }), status: 400 })
    logger.error(original)
    const logged = error.mock.calls[0][0] as AuthError
    expect(logged).toBeInstanceOf(AuthError)
    expect(logged.type).toBe('OAuthCallbackError')
    expect(logged.status).toBe(400)
    expect(logged.message).toBe(`Provider says ${escapeControl(hostile)}`)
    expect(logged.message).not.toMatch(raw)
    expect((logged.cause as Error).message).not.toMatch(raw)
    expect((logged.cause as Error).cause).toBe(`root ${escapeControl(hostile)}`)
    // The stack's head is escaped whole; the frame lines that follow keep their own line breaks.
    const lines = logged.stack!.split('\n')
    expect(lines[0]).toBe(`OAuthCallbackError: Provider says ${escapeControl(hostile)}`)
    expect(lines.length).toBeGreaterThan(1)
    for (const frame of lines.slice(1)) expect(frame).toMatch(/^ +at /)
    expect(logged.stack).not.toMatch(/[\r\u0000\u001b\u2028]/)
    expect((logged.cause as Error).stack!.split('\n')[0]).toBe(`Error: cause ${escapeControl(hostile)}`)
    // The thrown error itself is not changed.
    expect(original.message).toBe(`Provider says ${hostile}`)
  })

  it('escapes a stack read before its message changed, keeping only the frame lines apart', () => {
    const error = vi.fn()
    const thrown = new Error(`first ${hostile}`)
    void thrown.stack
    thrown.message = 'second'
    createLogger({ error }).error(thrown)
    const stack = (error.mock.calls[0][0] as Error).stack!
    expect(stack.split('\n')[0]).toBe(`Error: first ${escapeControl(hostile)}`)
    expect(stack).not.toMatch(/[\r\u0000\u001b\u2028]/)
  })

  it('escapes warnings and debug messages with their metadata, and survives a cycle', () => {
    const warn = vi.fn()
    const debug = vi.fn()
    const logger = createLogger({ warn, debug })
    logger.warn(`UnknownProvider: ${hostile}`)
    expect(warn).toHaveBeenCalledWith(`UnknownProvider: ${escapeControl(hostile)}`)
    const metadata: Record<string, unknown> = { provider: hostile, list: [hostile, 1], error: new Error(hostile) }
    metadata.self = metadata
    logger.debug(hostile, metadata)
    const [message, meta] = debug.mock.calls[0] as [string, Record<string, any>]
    expect(message).not.toMatch(raw)
    expect(meta.provider).toBe(escapeControl(hostile))
    expect(meta.list).toEqual([escapeControl(hostile), 1])
    expect(meta.error.message).toBe(escapeControl(hostile))
    expect(meta.self).toBe(meta)
  })

  it('the default console logger prints one escaped line per entry', () => {
    const printed: string[] = []
    vi.spyOn(console, 'error').mockImplementation((...args) => void printed.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')))
    vi.spyOn(console, 'warn').mockImplementation((...args) => void printed.push(args.join(' ')))
    const logger = createLogger(undefined)
    logger.error(new AuthError('AdapterError', `failed for ${hostile}`, { cause: new Error(hostile) }))
    logger.warn(hostile)
    expect(printed).toHaveLength(2)
    for (const line of printed) expect(line).not.toMatch(raw)
    expect(printed[0]).toContain('failed for idp\\r\\n[latchkey][error] forged\\u0000')
  })
})

describe('request text on its way to the log', () => {
  it('a provider id with CR, LF and NUL in the path reaches no log line raw', async () => {
    const { handler, logs } = testServer()
    const jar = new Jar(handler)
    const csrfToken = await jar.csrf()
    const res = await jar.postForm(`/auth/signin/${encodeURIComponent(hostile)}`, { csrfToken }, { 'x-auth-return-redirect': '1' })
    expect(res.status).toBe(404)
    expect(logs.length).toBeGreaterThan(0)
    for (const line of logs) expect(line).not.toMatch(raw)
  })
})
