import { describe, expect, it } from 'vitest'
import { isDate } from '../../src/core/types.js'

describe('isDate', () => {
  it.each([
    ['2026-11-22T02:47:00Z', true],
    ['2026-11-22T02:47:00.123Z', true],
    ['2026-11-22T02:47:00+01:00', true],
    ['2026-11-22', false],
    ['2026-13-45T99:99:99Z', false],
    ['not a date', false],
    [new Date(), false],
    [1700000000000, false],
    [null, false],
    [undefined, false],
  ])('%s -> %s', (value, expected) => {
    expect(isDate(value)).toBe(expected)
  })
})
