/** Launches the system Chromium (Debian's /usr/bin/chromium) for the browser tests. */
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)`)
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  })
}

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
