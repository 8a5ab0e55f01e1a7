/**
 * readableOn, the words' colour on a filled button (the emails' and pages' primary, a provider's
 * button in the elements and on the sign-in page): white or near-black, whichever contrasts more,
 * which is 4.5:1 (WCAG AA) or more on every colour.
 */
import { describe, expect, it } from 'vitest'
import { readableOn } from '../../src/core/readable-on.js'

const channel = (c: number) => {
  const s = c / 255
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
}
const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => channel(parseInt(hex.slice(i, i + 2), 16)))
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p)
  return (x! + 0.05) / (y! + 0.05)
}

describe('readableOn', () => {
  it('white on dark colours, near-black on light ones', () => {
    expect(readableOn('#24292f')).toBe('#ffffff')
    expect(readableOn('#000')).toBe('#ffffff')
    expect(readableOn('#ffd700')).toBe('#111111')
    expect(readableOn('#FFF')).toBe('#111111')
    expect(readableOn('#1db954')).toBe('#111111')
  })

  it('gives 4.5:1 or more on every colour of a grid through the whole cube', () => {
    const steps = [0, 34, 68, 102, 119, 136, 153, 170, 187, 204, 238, 255]
    const low: string[] = []
    for (const r of steps) for (const g of steps) for (const b of steps) {
      const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`
      const text = readableOn(hex)!
      if (contrast(hex, text) < 4.5) low.push(`${hex} ${text} ${contrast(hex, text).toFixed(2)}`)
    }
    expect(low).toEqual([])
  })

  it('reads only #rgb and #rrggbb: anything else is for the caller to decide', () => {
    for (const other of ['rgb(10, 20, 30)', 'red', '#12345', '#1234567', '', undefined]) expect(readableOn(other), String(other)).toBeUndefined()
  })
})
