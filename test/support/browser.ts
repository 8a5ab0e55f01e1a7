/** Launches the system Chromium (Debian's /usr/bin/chromium) for the browser tests. */
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** `backForwardCache`: on, as in a browser people use (Playwright turns it off by default). */
export function launchBrowser({ backForwardCache = false } = {}): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)`)
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    ...(backForwardCache && { ignoreDefaultArgs: ['--disable-back-forward-cache'] }),
  })
}
