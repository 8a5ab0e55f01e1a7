/**
 * The kernel's one-time-secret service (issue 42, item 3): a code kind is declared once (purpose,
 * length, alphabet, lifetime, tries) and its codes are keyed by purpose and subject, stored as
 * HMACs, their tries counted in the store. Over HTTP: email-codes.test.ts, password.test.ts,
 * mfa.test.ts, one-time-keys.test.ts; the purge of expired codes: test/dbsc/store-growth.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter, VerificationCode } from '../../src/core/types.js'
import { resolveConfig } from '../../src/server/kernel/config.js'
import { createContext } from '../../src/server/kernel/context.js'
import { countTry, digits, issueCode, spendCode, startCount, type CodeKind } from '../../src/server/kernel/one-time-secrets.js'
import { testSecret } from '../support/server.js'

const kind = (purpose: string, extra: Partial<CodeKind> = {}): CodeKind => ({ purpose, length: 6, alphabet: digits, maxAge: 600, maxAttempts: 5, needFor: 'tests', ...extra })

function setup() {
  const store = MemoryAdapter()
  const written: VerificationCode[] = []
  const adapter: Adapter = { ...store, createVerificationCode: (record) => (written.push(record), store.createVerificationCode(record)) }
  const config = resolveConfig({ secret: testSecret, adapter, providers: [] })
  const ctx = () => createContext(new Request('http://localhost/auth/signin'), config)
  return { store, written, ctx }
}

const refusal = (promise: Promise<unknown>) => promise.then(() => 'spent', (e: { type?: string; status?: number }) => `${e.status} ${e.type}`)

describe('one-time codes', () => {
  it('are keyed by purpose and subject and stored as an HMAC: a code of one kind or subject never spends for another', async () => {
    const { written, ctx } = setup()
    const reset = kind('password-reset')
    const { code, expires } = await issueCode(ctx(), reset, 'ada@example.com')
    expect(code).toMatch(/^\d{6}$/)
    expect(written).toEqual([{ identifier: 'password-reset:ada@example.com', code: expect.stringMatching(/^[0-9a-f]{64}$/), expires }])
    expect(await refusal(spendCode(ctx(), kind('password-verify'), 'ada@example.com', code))).toBe('400 InvalidCode')
    expect(await refusal(spendCode(ctx(), kind('email', { bare: true }), 'ada@example.com', code))).toBe('400 InvalidCode')
    expect(await refusal(spendCode(ctx(), reset, 'bob@example.com', code))).toBe('400 InvalidCode')
    expect(await refusal(spendCode(ctx(), reset, 'ada@example.com', ` ${code.slice(0, 3)}-${code.slice(3)} `))).toBe('spent')
    expect(await refusal(spendCode(ctx(), reset, 'ada@example.com', code))).toBe('400 InvalidCode')
  })

  it('a kind keyed by the subject alone refuses a subject holding a ":" (another purpose\'s key) with a 400, storing nothing', async () => {
    const { written, ctx } = setup()
    const bare = kind('email', { bare: true })
    for (const subject of ['password-reset:ada@example.com', 'mfa-tries:user-1']) {
      expect(await refusal(issueCode(ctx(), bare, subject))).toBe('400 InvalidRequest')
      expect(await refusal(spendCode(ctx(), bare, subject, '123456'))).toBe('400 InvalidRequest')
    }
    expect(written).toEqual([])
  })

  it('tries without a code are counted in the store: maxAttempts of them, then none; no count at all is none (fail closed)', async () => {
    const { ctx } = setup()
    const tries = kind('mfa-tries', { length: 32, alphabet: '0123456789abcdef', maxAttempts: 3 })
    expect(await countTry(ctx(), tries, 'user-1')).toBe(false)
    await startCount(ctx(), tries, 'user-1', new Date(Date.now() + 60_000))
    const counted = await Promise.all(Array.from({ length: 6 }, () => countTry(ctx(), tries, 'user-1')))
    expect(counted.filter(Boolean)).toHaveLength(3)
    expect(await countTry(ctx(), tries, 'user-1')).toBe(false)
    // A new count starts afresh.
    await startCount(ctx(), tries, 'user-1', new Date(Date.now() + 60_000))
    expect(await countTry(ctx(), tries, 'user-1')).toBe(true)
  })
})
