/**
 * The demo's screenshots in docs/screenshots/: the app's page at 390, 1024 and 1600 px wide,
 * signed out and signed in with the demo account (demo-<width>-signed-out.png, …-signed-in.png).
 * Starts the demo itself, as `npm start` does, on free ports with a fresh data folder, and drives
 * Debian's Chromium. Run: `npx tsx scripts/screenshots.ts`.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../test/support/browser.js'
import { smallPng } from './small-png.js'

const root = join(import.meta.dirname, '..')
const out = join(root, 'docs/screenshots')
const widths = [390, 1024, 1600]

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** `demo/start.mjs` in a child process; resolves once it says it is ready. */
async function startDemo(dataDir: string) {
  const [port, idpPort] = [await freePort(), await freePort()]
  const demo = spawn(process.execPath, ['demo/start.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), IDP_PORT: String(idpPort), LATCHKEY_DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start in 2 minutes:\n${output}`)), 120_000)
    demo.stderr.on('data', (chunk: Buffer) => (output += chunk))
    demo.stdout.on('data', (chunk: Buffer) => {
      output += chunk
      if (output.includes('Press Ctrl-C')) clearTimeout(timer), resolve()
    })
    demo.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the demo exited (${code}):\n${output}`))))
  })
  return {
    origin: `http://localhost:${port}`,
    stop: () => new Promise<unknown>((resolve) => (demo.exitCode === null ? (demo.once('exit', resolve), demo.kill('SIGINT')) : resolve(null))),
  }
}

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
  await page.locator('latchkey-signin input[name=username]').fill('demo')
  await page.locator('latchkey-signin input[name=password]').fill('demo')
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

const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-screenshots-'))
const [browser, demo] = await Promise.all([launchBrowser(), startDemo(dataDir)])
try {
  for (const width of widths) await shoot(browser, demo.origin, width)
} finally {
  await browser.close()
  await demo.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
