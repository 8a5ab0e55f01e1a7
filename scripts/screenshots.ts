/**
 * The demo's screenshots in docs/screenshots/: the app's page at 390, 1024 and 1600 px wide,
 * signed out and signed in with the demo account (demo-<width>-signed-out.png, …-signed-in.png).
 * Starts the demo itself, as `npm start` does, on free ports with a fresh data folder, and drives
 * Debian's Chromium. Then the sign-in element alone in English, Japanese and Arabic, in a light and
 * a dark card (signin-<lang>-<light|dark>.png), for docs/elements.md. Run: `npx tsx scripts/screenshots.ts`.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../test/support/browser.js'
import { startDemo } from '../test/support/demo.js'
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

/** `<latchkey-signin>` in `lang`, in the light or dark colour scheme, on its own. */
async function shootSignIn(browser: Browser, origin: string, lang: string, scheme: 'light' | 'dark'): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 480, height: 900 }, colorScheme: scheme, deviceScaleFactor: 1 })
  const page = await context.newPage()
  await page.goto(origin + '/')
  await page.locator('#panel-status', { hasText: 'Signed out' }).waitFor()
  const element = page.locator('latchkey-signin').first()
  // In a card of the scheme, as an app in that scheme draws one: the element follows the page's color-scheme.
  await element.evaluate((el, [lang, scheme]) => {
    el.setAttribute('lang', lang)
    Object.assign((el as HTMLElement).style, { colorScheme: scheme, background: 'Canvas', color: 'CanvasText', padding: '16px', margin: '0' })
  }, [lang, scheme])
  // The language's words are in once the element's box says it speaks it.
  await element.locator(`div[lang="${lang}"]`).waitFor()
  await element.locator('button').first().waitFor()
  const file = join(out, `signin-${lang}-${scheme}.png`)
  writeFileSync(file, smallPng(await element.screenshot()))
  console.log(`wrote ${file}`)
  await context.close()
}

const [browser, demo] = await Promise.all([launchBrowser(), startDemo()])
try {
  for (const width of widths) await shoot(browser, demo.origin, width)
  for (const lang of ['en', 'ja', 'ar']) for (const scheme of ['light', 'dark'] as const) await shootSignIn(browser, demo.origin, lang, scheme)
} finally {
  await browser.close()
  await demo.close()
}
