import { describe, expect, it } from 'vitest'
import { TokenCache } from '../../src/server/token-cache.js'

describe('TokenCache', () => {
  it('answers a stored payload until its exp, then forgets it', () => {
    const cache = new TokenCache<{ exp: number; sub: string }>()
    cache.set('t', { exp: 100, sub: 'a' })
    expect(cache.get('t', 99)?.sub).toBe('a')
    expect(cache.get('t', 100)).toBeUndefined()
    expect(cache.get('t', 50)).toBeUndefined()
  })

  it('stays within its limit, dropping the oldest entry first', () => {
    const cache = new TokenCache<{ exp: number }>(3)
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, { exp: 10 })
    expect(cache.get('a', 0)).toBeUndefined()
    expect(['b', 'c', 'd'].map((k) => cache.get(k, 0)?.exp)).toEqual([10, 10, 10])
  })
})
