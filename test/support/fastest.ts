/**
 * Enumeration by time: the fastest of `pairs` answers for a known and an unknown subject, taken in
 * turns (which goes first alternates), each timed after the last one's work after the answer has
 * settled, a few pairs first not counted (cold code). The fastest, not the median: a loaded
 * machine only ever adds time, so the minimum is each path's own cost (a median of a few
 * milliseconds moved by 3x on a busy CI run).
 */
import { expect } from 'vitest'

export const warmUp = 5

export async function fastest(settled: () => Promise<void>, pairs: number, known: () => Promise<Response>, unknown: () => Promise<Response>) {
  const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] }
  for (let i = -warmUp; i < pairs; i++) {
    const turn = [['known', known], ['unknown', unknown]] as const
    for (const [side, run] of i % 2 ? turn : [...turn].reverse()) {
      const start = performance.now()
      const res = await run()
      if (i >= 0) times[side].push(performance.now() - start)
      expect(res.status).toBe(200)
      await settled()
    }
  }
  return { known: Math.min(...times.known), unknown: Math.min(...times.unknown) }
}
