/** The one browser set-up of the test files (a module apart: scripts and benches import launchBrowser outside vitest). */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launchBrowser } from './browser.js'

/**
 * The one browser set-up of a test file: Chromium launched and `start()`'s server started before
 * the first test (the file's own `beforeAll` hooks run after this one), both closed after the
 * last. Read `browser` and `server` from the answer inside tests and hooks. `timeout`: the
 * set-up's, ms.
 */
export function browserAnd<S extends { close(): unknown } | undefined = undefined>(
  start?: () => Promise<S>,
  { timeout }: { timeout?: number } = {},
): { browser: Browser; server: S } {
  const env = {} as { browser: Browser; server: S }
  beforeAll(async () => {
    const launching = launchBrowser()
    try {
      if (start) env.server = await start()
    } finally {
      env.browser = await launching
    }
  }, timeout)
  afterAll(async () => {
    await env.browser?.close()
    await env.server?.close()
  })
  return env
}
