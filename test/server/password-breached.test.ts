/**
 * The breached-password check against a local range server (test/support/range-server.ts): only
 * the 5-digit SHA-1 prefix leaves, padding lines (count 0) are not breaches, and when the check
 * cannot be made it fails open with one logged warning, or closed with a 503 when configured.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AuthError } from '../../src/core/errors.js'
import { BREACH_CHECK_UNREACHABLE, isBreached, type BreachCheckOptions } from '../../src/server/features/password/breached.js'
import { sha1Upper, startRangeServer, type RangeServer } from '../support/range-server.js'

const breachedPassword = 'P@ssw0rd-from-a-dump'
const cleanPassword = 'a long and unlikely pass phrase 7c1e'
/** Listed only as a padding line (count 0) under its prefix. */
const paddedPassword = 'padding-only secret 42'

function recordingLogger() {
  const warnings: string[] = []
  return { warnings, logger: { warn: (code: string) => void warnings.push(code) } }
}

let server: RangeServer
beforeAll(async () => {
  server = await startRangeServer({ breached: { [breachedPassword]: 3861, 'password': 9659365 }, paddedOnly: [paddedPassword] })
})
afterAll(() => server.close())
afterEach(() => {
  server.mode = 'ok'
  server.requests.length = 0
})

const options = (more: BreachCheckOptions = {}): BreachCheckOptions => ({ endpoint: server.endpoint, ...more })

describe('isBreached', () => {
  it('answers true for a password the corpus lists, false for one it does not', async () => {
    const { warnings, logger } = recordingLogger()
    expect(await isBreached(breachedPassword, options(), logger)).toBe(true)
    expect(await isBreached('password', options(), logger)).toBe(true)
    expect(await isBreached(cleanPassword, options(), logger)).toBe(false)
    expect(warnings).toEqual([])
  })

  it('sends only the 5-character prefix of the SHA-1, with Add-Padding, never the full hash or the password', async () => {
    const { logger } = recordingLogger()
    await isBreached(breachedPassword, options(), logger)
    const hash = sha1Upper(breachedPassword)
    expect(server.requests).toEqual([{ path: `/range/${hash.slice(0, 5)}`, padding: true }])
    const seen = JSON.stringify(server.requests)
    expect(seen).not.toContain(hash.slice(5, 12))
    expect(seen.toUpperCase()).not.toContain(hash.slice(5, 12))
    expect(seen).not.toContain(encodeURIComponent(breachedPassword))
  })

  it('ignores padding lines: a suffix listed with count 0 is not a breach', async () => {
    const { logger } = recordingLogger()
    expect(await isBreached(paddedPassword, options(), logger)).toBe(false)
    expect(server.requests[0].padding).toBe(true)
  })

  it('matches suffixes case-insensitively', async () => {
    const lower = await startRangeServer({ breached: { [breachedPassword]: 7 }, lowercase: true })
    try {
      const { logger } = recordingLogger()
      expect(await isBreached(breachedPassword, { endpoint: lower.endpoint }, logger)).toBe(true)
      expect(await isBreached(cleanPassword, { endpoint: lower.endpoint }, logger)).toBe(false)
    } finally {
      await lower.close()
    }
  })

  it('hashes the password as UTF-8 (a Unicode password is found under its own prefix)', async () => {
    const unicode = 'mot de passe né 😀'
    const local = await startRangeServer({ breached: { [unicode]: 2 } })
    try {
      const { logger } = recordingLogger()
      expect(await isBreached(unicode, { endpoint: local.endpoint }, logger)).toBe(true)
      expect(local.requests[0].path).toBe(`/range/${sha1Upper(unicode).slice(0, 5)}`)
    } finally {
      await local.close()
    }
  })

  it('uses the fetch it is given', async () => {
    const urls: string[] = []
    const { logger } = recordingLogger()
    const spyFetch: typeof fetch = (input, init) => {
      urls.push(String(input))
      return fetch(input, init)
    }
    expect(await isBreached(breachedPassword, options({ fetch: spyFetch }), logger)).toBe(true)
    expect(urls).toEqual([`${server.endpoint}${sha1Upper(breachedPassword).slice(0, 5)}`])
  })
})

describe('when the range API cannot answer', () => {
  for (const mode of ['error', 'garbage'] as const) {
    it(`fails open on ${mode === 'error' ? 'a 500' : 'a garbled answer'}: false, and one warning that carries no secret`, async () => {
      server.mode = mode
      const { warnings, logger } = recordingLogger()
      expect(await isBreached(breachedPassword, options(), logger)).toBe(false)
      expect(warnings).toEqual([BREACH_CHECK_UNREACHABLE])
      expect(warnings.join()).not.toContain(breachedPassword)
      expect(warnings.join()).not.toContain(sha1Upper(breachedPassword).slice(0, 5))
    })
  }

  it('fails open when nothing listens (connection refused)', async () => {
    const gone = await startRangeServer()
    const endpoint = gone.endpoint
    await gone.close()
    const { warnings, logger } = recordingLogger()
    expect(await isBreached(breachedPassword, { endpoint }, logger)).toBe(false)
    expect(warnings).toEqual([BREACH_CHECK_UNREACHABLE])
  })

  it('honours the timeout when the answer never comes', async () => {
    server.mode = 'hang'
    const { warnings, logger } = recordingLogger()
    // Without the timeout this would wait for the test's own 30 s limit.
    expect(await isBreached(breachedPassword, options({ timeout: 150 }), logger)).toBe(false)
    expect(warnings).toEqual([BREACH_CHECK_UNREACHABLE])
    expect(server.requests).toHaveLength(1)
  })

  it("with onError 'deny', refuses with ProviderUnreachable (503) and logs nothing", async () => {
    for (const mode of ['error', 'garbage', 'hang'] as const) {
      server.mode = mode
      const { warnings, logger } = recordingLogger()
      const error = await isBreached(cleanPassword, options({ onError: 'deny', timeout: 150 }), logger).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AuthError)
      expect((error as AuthError).type).toBe('ProviderUnreachable')
      expect((error as AuthError).status).toBe(503)
      expect((error as AuthError).message).toMatch(/^The breached-password check is unreachable/)
      expect(warnings).toEqual([])
    }
  })

  it("with onError 'deny', still answers normally when the API does", async () => {
    const { logger } = recordingLogger()
    expect(await isBreached(breachedPassword, options({ onError: 'deny' }), logger)).toBe(true)
    expect(await isBreached(cleanPassword, options({ onError: 'deny' }), logger)).toBe(false)
  })
})
