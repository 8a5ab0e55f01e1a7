/**
 * Per-instance and per-request state (kernel/state.ts, issue 42 item 1): a feature keeps its
 * values on the resolved configuration or on the request's context under typed keys, not in
 * module-level maps, so two instances in one process, or two requests, never see each other's.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { features } from '../../src/server/features/index.js'
import { resolveConfig } from '../../src/server/kernel/config.js'
import { createContext } from '../../src/server/kernel/context.js'
import { pageWords } from '../../src/server/kernel/page-language.js'
import { instanceKey, requestKey } from '../../src/server/kernel/state.js'
import { Latchkey } from '../../src/server/index.js'
import { testSecret } from '../support/server.js'

const instance = () => resolveConfig({ secret: testSecret, providers: [] })
const request = (config: ReturnType<typeof instance>, headers: Record<string, string> = {}) => createContext(new Request('http://localhost/auth/session', { headers }), config)

describe('instanceKey: a value per instance, kept on its resolved configuration', () => {
  const limit = instanceKey<{ max: number }>('test limit')

  it('keeps two instances apart', () => {
    const a = instance()
    const b = instance()
    limit.set(a, { max: 1 })
    limit.set(b, { max: 2 })
    expect(limit.get(a)).toEqual({ max: 1 })
    expect(limit.get(b)).toEqual({ max: 2 })
    // Every request of an instance reaches the instance's value through ctx.config.
    expect(limit.get(request(a).config)).toEqual({ max: 1 })
  })

  it('lives on the instance, where a debugger shows it under its name', () => {
    const a = instance()
    limit.set(a, { max: 3 })
    expect([...a.state].find(([key]) => (key as { name: string }).name === 'test limit')?.[1]).toEqual({ max: 3 })
  })

  it('says which value was read before it was set; find answers undefined', () => {
    const a = instance()
    expect(() => limit.get(a)).toThrow('latchkey: test limit was read before it was set')
    expect(limit.find(a)).toBeUndefined()
    expect(limit.has(a)).toBe(false)
  })

  it('makes a value once with ensure', () => {
    const a = instance()
    let made = 0
    const first = limit.ensure(a, () => ({ max: ++made }))
    expect(limit.ensure(a, () => ({ max: ++made }))).toBe(first)
    expect(made).toBe(1)
  })

  it('two keys of one name are two slots', () => {
    const a = instance()
    const other = instanceKey<{ max: number }>('test limit')
    limit.set(a, { max: 1 })
    expect(other.find(a)).toBeUndefined()
  })
})

describe('requestKey: a value per request, kept on its context', () => {
  const seen = requestKey<string>('test seen')

  it("does not leak one request's value to another of the same instance", () => {
    const config = instance()
    const first = request(config)
    const second = request(config)
    seen.set(first, 'first')
    expect(seen.get(first)).toBe('first')
    expect(seen.find(second)).toBeUndefined()
    expect(() => seen.get(second)).toThrow('latchkey: test seen was read before it was set')
    expect(config.state.size).toBe(0)
  })

  it('keeps instance and request keys apart in the types', () => {
    const config = instance()
    const ctx = request(config)
    const perInstance = instanceKey<number>('test number')
    // @ts-expect-error: an instance's value is read on ctx.config, not on the request
    expect(perInstance.find(ctx)).toBeUndefined()
    // @ts-expect-error: a request's value is not the instance's
    expect(seen.find(config)).toBeUndefined()
  })

  it("chooses each request's page language on its own (kernel/page-language.ts)", async () => {
    const config = instance()
    // The shipped languages but English load after start-up; a route waits for them the same way (latchkey.ts).
    await config.pageLanguages.ready
    const french = request(config, { 'accept-language': 'fr' })
    const german = request(config, { 'accept-language': 'de' })
    expect(pageWords(french).lang).toBe('fr')
    expect(pageWords(german).lang).toBe('de')
    expect(pageWords(french).lang).toBe('fr')
  })
})

describe('features keep their state per instance', () => {
  it('one instance with second factors on, another without, in one process (mfa options)', async () => {
    const withMfa = Latchkey({ secret: testSecret, adapter: MemoryAdapter(), mfa: true, providers: [] })
    const without = Latchkey({ secret: testSecret, adapter: MemoryAdapter(), providers: [] })
    expect((await without(new Request('http://localhost/auth/mfa'))).status).toBe(404)
    expect((await withMfa(new Request('http://localhost/auth/mfa'))).status).not.toBe(404)
    const resolved = resolveConfig({ secret: testSecret, adapter: MemoryAdapter(), mfa: true, providers: [] }, features)
    expect([...resolved.state.keys()].map((key) => (key as { name: string }).name)).toContain('mfa options')
  })
})
