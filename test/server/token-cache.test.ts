import { describe, expect, it } from 'vitest'
import { TokenCache } from '../../src/server/kernel/token-cache.js'

describe('TokenCache', () => {
  it('answers a hit until the payload expires, then forgets it', () => {
    const cache = new TokenCache<{ exp: number; sub: string }>()
    cache.set('t', 'name', { exp: 100, sub: 'a' })
    expect(cache.get('t', 'name', 99)?.sub).toBe('a')
    expect(cache.get('t', 'name', 100)).toBeUndefined()
    expect(cache.get('t', 'name', 50)).toBeUndefined()
  })

  it('is no hit for the same token under another salt (cookie name)', () => {
    const cache = new TokenCache<{ exp: number }>()
    cache.set('t', 'latchkey.session-token', { exp: 100 })
    expect(cache.get('t', '__Secure-latchkey.session-token', 0)).toBeUndefined()
    expect(cache.get('t', 'latchkey.session-token', 0)?.exp).toBe(100)
  })

  it('drops the oldest entry when full', () => {
    const cache = new TokenCache<{ exp: number }>(3)
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, 's', { exp: 10 })
    expect(cache.get('a', 's', 0)).toBeUndefined()
    expect(['b', 'c', 'd'].map((k) => cache.get(k, 's', 0)?.exp)).toEqual([10, 10, 10])
  })
})
