/**
 * The demo's screenshots in docs/screenshots/: the app's page at 390, 1024 and 1600 px wide,
 * signed out and signed in with the demo account (demo-<width>-signed-out.png, …-signed-in.png).
 * Starts the demo itself, as `npm start` does, on free ports with a fresh data folder, and drives
 * Debian's Chromium. Then each element's states and three example themes (screenshot-states.ts),
 * for docs/elements.md. Run: `npx tsx scripts/screenshots.ts`, or name some:
 * `npx tsx scripts/screenshots.ts profile themes`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../test/support/browser.js'
import { startDemo } from '../test/support/demo.js'
import { shootStates, shootThemes } from './screenshot-states.js'
import { smallPng } from './small-png.js'

const root = join(import.meta.dirname, '..')
const out = join(root, 'docs/screenshots')
const widths = [390, 1024, 1600]

async function shoot(browser: Browser, origin: string, width: number): Promise<void> {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  const page = await context.newPage()
  const save = async (name: string) => {
    // The footer is filled in from /demo.json; wait for it so the page is complete.
    await page.locator('#where dl').waitFor()
    const file = join(out, `demo-${width}-${name}.png`)
    writeFileSync(file, smallPng(await page.screenshot({ fullPage: true })))
    console.log(`wrote ${file}`)
  }
  await page.goto(origin + '/')
  await page.locator('#panel-status', { hasText: 'Signed out' }).waitFor()
  await save('signed-out')
  await page.locator('latchkey-signin input[part~="identifier"]').fill('demo')
  await page.locator('latchkey-signin button[part~="continue"]').click()
  await page.locator('latchkey-signin form[part~="credentials-form"] input[name=password]').fill('demo')
  await page.locator('latchkey-signin button', { hasText: 'Sign in with Demo account' }).click()
  await page.locator('#panel-status', { hasText: 'Signed in' }).waitFor()
  // The lists the elements read once signed in.
  await page.locator('latchkey-sessions [part~="session"]').first().waitFor()
  await page.locator('latchkey-accounts [part~="connect"]').waitFor()
  await page.locator('#notes .notes-status', { hasText: 'No notes yet.' }).waitFor()
  await save('signed-in')
  await page.locator('latchkey-user button', { hasText: 'Sign out' }).click()
  await page.locator('#panel-status', { hasText: 'Signed out' }).waitFor()
  await context.close()
}

/** Names to take (`demo`, `themes`, or states of screenshot-states.ts); everything when none. */
const only = process.argv.slice(2)
const [browser, demo] = await Promise.all([launchBrowser(), startDemo()])
try {
  const all = !only.length
  if (all || only.includes('demo')) for (const width of widths) await shoot(browser, demo.origin, width)
  const stateNames = only.filter((name) => name !== 'demo' && name !== 'themes')
  if (all || stateNames.length) await shootStates(browser, demo.origin, out, stateNames)
  if (all || only.includes('themes')) await shootThemes(browser, demo.origin, out, readFileSync(join(root, 'docs/elements.md'), 'utf8'))
} finally {
  await browser.close()
  await demo.close()
}
