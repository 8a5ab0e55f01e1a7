/**
 * A fresh app built exactly as docs/guides/react.md says, from the packed package: create-vite's
 * react-ts starter (create-vite pinned, run non-interactively), `npm install`, the tarball and
 * express installed, the guide's files written as its code blocks have them (each block names its
 * file after the language: ```tsx src/App.tsx), `npm run build` (`tsc -b` and `vite build`), then
 * the Express API on one port and `vite` dev on another, with the guide's proxy between, and a
 * sign-in in Chromium through the rendered <latchkey-signin>, until <latchkey-user> names the user.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { launchBrowser } from '../support/browser.js'
import { namedBlocks } from '../support/code-blocks.js'
import { freePort } from '../support/free-port.js'
import { cleanEnv as env, installPacked, must, repoRoot, type PackedProject } from '../support/packed.js'

// The guide says `npm create vite@latest`; the test pins the version it was written against.
const createVite = 'create-vite@9.3.0'
const log = (line: string) => console.log(`[fresh-react-app] ${line}`)



/** Starts a long-running command in its own process group; resolves once `url` answers. */
async function start(dir: string, command: string, args: string[], extra: Record<string, string>, url: string): Promise<void> {
  const child = spawn(command, args, { cwd: dir, env: { ...env, ...extra }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited (${child.exitCode}):\n${output}`)
    if (await fetch(url).then((r) => r.ok, () => false)) return
  }
  throw new Error(`${command} ${args.join(' ')} did not answer ${url} in 60 s:\n${output}`)
}

const children: ChildProcess[] = []
let packed: PackedProject
let browser: Browser | undefined
let appDir: string

/** The guide's blocks that name a file after their language (```tsx src/App.tsx), by that file. */
const guideFiles = async () => namedBlocks(await readFile(join(repoRoot, 'docs/guides/react.md'), 'utf8'))

beforeAll(async () => {
  log('packing latchkey')
  packed = await installPacked()
  const spec = JSON.parse(await readFile(join(packed.dir, 'package.json'), 'utf8')).dependencies.latchkey as string
  const tarball = join(packed.dir, spec.replace(/^file:/, ''))
  log(`${createVite} my-app --template react-ts`)
  await must(packed.dir, 'npm', ['exec', '--yes', '--', createVite, 'my-app', '--template', 'react-ts', '--no-interactive'])
  appDir = join(packed.dir, 'my-app')
  log('npm install (the starter)')
  await must(appDir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'])
  log('npm install latchkey express')
  await must(appDir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball, 'express'])
  const files = await guideFiles()
  log(`the guide's files: ${Object.keys(files).join(', ')}`)
  for (const [name, code] of Object.entries(files)) await writeFile(join(appDir, name), code)
}, 600_000)

afterAll(async () => {
  await browser?.close()
  for (const child of children) if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM')
  await packed?.remove()
})

test('the guide names the files it writes', async () => {
  expect(Object.keys(await guideFiles()).sort()).toEqual(['server.js', 'src/App.tsx', 'src/auth.ts', 'vite.config.ts'])
})

test('npm run build: tsc -b and vite build pass, and the worker is in the build', async () => {
  log('npm run build')
  const output = await must(appDir, 'npm', ['run', 'build'])
  expect(output).not.toMatch(/error TS/)
  const worker = await readFile(join(appDir, 'dist/latchkey-sw.js'), 'utf8')
  expect(worker).toBe(await readFile(join(appDir, 'node_modules/latchkey/dist/latchkey-sw.js'), 'utf8'))
  expect(existsSync(join(appDir, 'dist/index.html'))).toBe(true)
}, 300_000)

test('vite dev with the proxy: the worker is served as JavaScript, and a sign-in shows the user', async () => {
  const [apiPort, pagePort] = [await freePort(), await freePort()]
  const page = `http://localhost:${pagePort}`
  log(`node server.js on ${apiPort}, vite on ${pagePort}`)
  await start(appDir, process.execPath, ['server.js'], { PORT: String(apiPort), AUTH_URL: page, AUTH_SECRET: 'a-fresh-app-secret-of-32-characters!' }, `http://localhost:${apiPort}/auth/providers`)
  await start(appDir, 'npx', ['--no', '--', 'vite', '--port', String(pagePort), '--strictPort'], { API_URL: `http://localhost:${apiPort}` }, `${page}/auth/providers`)

  const served = await fetch(`${page}/latchkey-sw.js?base=%2Fauth`)
  expect(served.headers.get('content-type')).toMatch(/^text\/javascript/)

  browser = await launchBrowser()
  const tab = await browser.newPage()
  const warnings: string[] = []
  tab.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
  tab.on('pageerror', (e) => warnings.push(e.message))
  await tab.goto(page)
  // The username first, Continue, then the password.
  await tab.locator('latchkey-signin input[part~="identifier"]').fill('ada')
  await tab.locator('latchkey-signin button[part~="continue"]').click()
  const form = tab.locator('latchkey-signin form[part~="credentials-form"]')
  await form.locator('input[name="password"]').fill('demo')
  log('signing in')
  await form.locator('button[type="submit"]').click()
  await expect.poll(() => tab.locator('latchkey-user [part="name"]').textContent(), { timeout: 20_000 }).toBe('ada')
  expect(await tab.locator('main p').textContent()).toBe('Signed in as ada@example.com')
  // The session reached the API through the proxy, and the worker keeps it.
  expect(await tab.evaluate(() => fetch('/api/me').then((r) => r.json()))).toMatchObject({ email: 'ada@example.com' })
  expect(await tab.evaluate(() => navigator.serviceWorker.ready.then((r) => new URL(r.active!.scriptURL).pathname))).toBe('/latchkey-sw.js')
  expect(warnings).toEqual([])
}, 180_000)
