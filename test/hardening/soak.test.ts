/**
 * The soak (issue 10), short: bench/soak.ts for ~15 s with 30 users against two server processes
 * on PostgreSQL, one SIGKILLed mid-run and restarted. Nothing lost, nothing resurrected, no error
 * but connection failures against the killed server while it was down. The full run, minutes long,
 * is `npm run bench -- soak`; its figures are in BENCHMARKS.md.
 */
import { describe, expect, test } from 'vitest'
import { soak } from '../../bench/soak.js'
import { needsService } from '../support/needs-service.js'

const url = needsService('DATABASE_URL', 'soak (two servers, one killed mid-run)', 'postgres://postgres@127.0.0.1:5432/test', 'test/hardening/soak.test.ts')

if (url) {
  describe('soak: two server processes on PostgreSQL, one killed and restarted mid-run', () => {
    test('30 users for 15 s: nothing lost or resurrected, no unexpected errors, heap flat', async () => {
      const result = await soak({ databaseUrl: url, users: 30, seconds: 15, concurrency: 10, restartDelaySeconds: 2, maxHeapGrowthMB: 8 })
      console.log(result.summary)
      expect(result.lost).toBe(0)
      expect(result.resurrected).toBe(0)
      expect(result.unexpectedErrors).toBe(0)
      expect(result.sessionsChecked).toBe(60) // every user, on both servers
      expect(result.requests).toBeGreaterThan(100)
      expect(result.failures).toEqual([])
      expect(result.ok).toBe(true)
    }, 120_000)
  })
}
