/**
 * Fresh apps built exactly as two guides say, from the packed package, on one create-vite react-ts
 * starter (create-vite pinned, run non-interactively, installed once and copied):
 *
 * - docs/guides/react.md: `npm install latchkey express`, the guide's files, `npm run build`
 *   (`tsc -b` and `vite build`), the Express API and `vite` dev with the guide's proxy, and a
 *   credentials sign-in in Chromium through <latchkey-signin>, until <latchkey-user> names the user.
 * - docs/guides/quickstart.md: `npm install latchkey express pg nodemailer`, its files (`.env` with
 *   this machine's values), `npx latchkey secret` and `npx latchkey migrate` against a PostgreSQL
 *   database of this test's own, the build, then in Chromium with a virtual authenticator: a
 *   password sign-up (a breached password refused first), the confirmation link from a real SMTP
 *   sink, an authenticator app set up in <latchkey-mfa> (its codes made by otpauth from the key the
 *   element shows), sign-out, the password and the app's code, the app's own API route (401 signed
 *   out, the user signed in), a passkey added in <latchkey-passkeys> and then signing in alone.
 *
 * Each guide's blocks that name a file after their language (```tsx src/App.tsx) are its files.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Secret, TOTP } from 'otpauth'
import pg from 'pg'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchBrowser } from '../support/browser.js'
import { namedBlocks } from '../support/code-blocks.js'
import { freePort } from '../support/free-port.js'
import { needsService } from '../support/needs-service.js'
import { cleanEnv as env, installPacked, must, repoRoot, type PackedProject } from '../support/packed.js'
import { startRangeServer, type RangeServer } from '../support/range-server.js'
import { partsOf, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'
import { openWithAuthenticator } from '../webauthn/support/browser.js'

// The guides say `npm create vite@latest`; the test pins the version they were written against.
const createVite = 'create-vite@9.3.0'
const log = (line: string) => console.log(`[fresh-react-app] ${line}`)
const quiet = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']

const children: ChildProcess[] = []

/** Ends every command `start` began (each with its process group), and waits for each to exit. */
async function stopAll(): Promise<void> {
  const running = children.splice(0).filter((child) => child.exitCode === null && child.signalCode === null)
  await Promise.all(running.map((child) => {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      process.kill(-child.pid!, 'SIGTERM')
    } catch {
      return // gone already
    }
    return exited
  }))
}

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

interface Ports {
  api: number
  page: number
}
const pageOf = (ports: Ports) => `http://localhost:${ports.page}`

/** Serves `dir`'s app as the guides say: `node <nodeArgs>` (its server.js) on one port, `vite` dev with the proxy on another. */
async function serve(dir: string, nodeArgs: string[], serverEnv: Record<string, string>, ports: Ports): Promise<void> {
  log(`${dir}: node ${nodeArgs.join(' ')} on ${ports.api}, vite on ${ports.page}`)
  await start(dir, process.execPath, nodeArgs, { PORT: String(ports.api), ...serverEnv }, `http://localhost:${ports.api}/auth/providers`)
  await start(dir, 'npx', ['--no', '--', 'vite', '--port', String(ports.page), '--strictPort'], { API_URL: `http://localhost:${ports.api}` }, `${pageOf(ports)}/auth/providers`)
}

/** `npm run build` passes (`tsc -b` and `vite build`), with latchkey's worker and the page in dist/. */
async function buildPasses(dir: string): Promise<void> {
  log(`${dir}: npm run build`)
  const output = await must(dir, 'npm', ['run', 'build'])
  expect(output).not.toMatch(/error TS/)
  const worker = await readFile(join(dir, 'dist/latchkey-sw.js'), 'utf8')
  expect(worker).toBe(await readFile(join(dir, 'node_modules/latchkey/dist/latchkey-sw.js'), 'utf8'))
  expect(existsSync(join(dir, 'dist/index.html'))).toBe(true)
}

const browsers: Browser[] = []
let packed: PackedProject
let reactDir: string
let quickDir: string

const guides = { react: 'docs/guides/react.md', quickstart: 'docs/guides/quickstart.md' } as const

/** A guide's blocks that name a file after their language (```tsx src/App.tsx), by that file. */
const guideFiles = async (guide: string) => namedBlocks(await readFile(join(repoRoot, guide), 'utf8'))

/** The lines of a guide's `sh` blocks: the commands it tells a reader to type. */
async function guideCommands(guide: string): Promise<string[]> {
  const markdown = await readFile(join(repoRoot, guide), 'utf8')
  return [...markdown.matchAll(/^```sh\n([^]*?)^```$/gm)].flatMap(([, block]) => block!.split('\n').filter(Boolean))
}

beforeAll(async () => {
  log('packing latchkey')
  packed = await installPacked()
  const spec = JSON.parse(await readFile(join(packed.dir, 'package.json'), 'utf8')).dependencies.latchkey as string
  const tarball = join(packed.dir, spec.replace(/^file:/, ''))
  log(`${createVite} my-app --template react-ts`)
  await must(packed.dir, 'npm', ['exec', '--yes', '--', createVite, 'my-app', '--template', 'react-ts', '--no-interactive'])
  reactDir = join(packed.dir, 'my-app')
  log('npm install (the starter)')
  await must(reactDir, 'npm', ['install', ...quiet])
  // The same starter for the second guide: a copy, not a second create-vite and install.
  quickDir = join(packed.dir, 'quickstart', 'my-app')
  await cp(reactDir, quickDir, { recursive: true, verbatimSymlinks: true })
  log("each guide's npm install")
  await Promise.all([
    must(reactDir, 'npm', ['install', ...quiet, tarball, 'express']),
    must(quickDir, 'npm', ['install', ...quiet, tarball, 'express', 'pg', 'nodemailer']),
  ])
  for (const [dir, guide] of [[reactDir, guides.react], [quickDir, guides.quickstart]] as const) {
    const files = await guideFiles(guide)
    log(`${guide}'s files: ${Object.keys(files).join(', ')}`)
    for (const [name, code] of Object.entries(files)) await writeFile(join(dir, name), code)
  }
}, 600_000)

afterAll(async () => {
  for (const browser of browsers) await browser.close()
  await stopAll()
  await packed?.remove()
})

describe('docs/guides/react.md', () => {
  test('the guide names the files it writes, and the commands this test runs', async () => {
    expect(Object.keys(await guideFiles(guides.react)).sort()).toEqual(['server.js', 'src/App.tsx', 'src/auth.ts', 'vite.config.ts'])
    expect(await guideCommands(guides.react)).toEqual(expect.arrayContaining(['npm create vite@latest my-app -- --template react-ts', 'npm install', 'npm install latchkey express']))
  })

  test('npm run build: tsc -b and vite build pass, and the worker is in the build', () => buildPasses(reactDir), 300_000)

  test('vite dev with the proxy: the worker is served as JavaScript, and a sign-in shows the user', async () => {
    const ports = { api: await freePort(), page: await freePort() }
    const page = pageOf(ports)
    await serve(reactDir, ['server.js'], { AUTH_URL: page, AUTH_SECRET: 'a-fresh-app-secret-of-32-characters!' }, ports)
    const served = await fetch(`${page}/latchkey-sw.js?base=%2Fauth`)
    expect(served.headers.get('content-type')).toMatch(/^text\/javascript/)

    const browser = await launchBrowser()
    browsers.push(browser)
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
})

describe('docs/guides/quickstart.md', () => {
  const commands = {
    install: 'npm install latchkey express pg nodemailer',
    secret: 'npx latchkey secret',
    migrate: 'npx latchkey migrate',
    server: 'node --env-file=.env server.js',
  }

  test('the guide names the files it writes, and the commands this test runs', async () => {
    expect(Object.keys(await guideFiles(guides.quickstart)).sort()).toEqual(['.env', 'server.js', 'src/App.tsx', 'src/auth.ts', 'vite.config.ts'])
    expect(await guideCommands(guides.quickstart)).toEqual(expect.arrayContaining(['npm create vite@latest my-app -- --template react-ts', 'npm install', ...Object.values(commands), 'npm run dev']))
  })

  test('npm run build: tsc -b and vite build pass, and the worker is in the build', () => buildPasses(quickDir), 300_000)

  const databaseUrl = needsService('DATABASE_URL', 'quickstart (docs/guides/quickstart.md) on PostgreSQL', 'postgres://postgres@127.0.0.1:5432/test', 'test/package/fresh-react-app.test.ts')
  if (!databaseUrl) return

  // A database of this test's own (hex only: safe in DDL), dropped afterwards.
  const database = `lk_quickstart_${randomBytes(6).toString('hex')}`
  const appDatabaseUrl = Object.assign(new URL(databaseUrl), { pathname: `/${database}` }).href
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  let sink: SmtpSink
  let range: RangeServer
  const breachedPassword = 'password123'
  const password = 'a long walk by the river'
  beforeAll(async () => {
    ;[sink, range] = await Promise.all([startSmtpSink(), startRangeServer({ breached: { [breachedPassword]: 250_000 } }), admin(`CREATE DATABASE ${database}`)])
  })
  afterAll(async () => {
    // The app's server first: its database goes next.
    await stopAll()
    await Promise.all([sink?.close(), range?.close(), admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)])
  })

  const ports: Ports = { api: 0, page: 0 }

  test('.env with this machine\'s values, then npx latchkey secret and npx latchkey migrate, as the guide says', async () => {
    ;[ports.api, ports.page] = [await freePort(), await freePort()]
    // What a reader changes in the guide's .env: where their PostgreSQL, SMTP server and page are.
    const values: Record<string, string> = { AUTH_URL: `http://localhost:${ports.page}`, DATABASE_URL: appDatabaseUrl, SMTP_URL: `smtp://127.0.0.1:${sink.port}` }
    let dotenv = await readFile(join(quickDir, '.env'), 'utf8')
    for (const [name, value] of Object.entries(values)) {
      expect(dotenv).toMatch(new RegExp(`^${name}=`, 'm'))
      dotenv = dotenv.replace(new RegExp(`^${name}=.*$`, 'm'), `${name}=${value}`)
    }
    await writeFile(join(quickDir, '.env'), dotenv)
    const [npx, ...args] = commands.secret.split(' ')
    expect(await must(quickDir, npx!, args)).toMatch(/Wrote a random AUTH_SECRET/)
    expect(await readFile(join(quickDir, '.env'), 'utf8')).toMatch(/^AUTH_SECRET=.{44}$/m)
    // cleanEnv has no DATABASE_URL: the URL migrate uses is the one in .env.
    const [, ...migrate] = commands.migrate.split(' ')
    const migrated = await must(quickDir, npx!, migrate)
    // The URL as migrate shows it: its password hidden.
    const shown = new URL(appDatabaseUrl)
    if (shown.password) shown.password = '***'
    expect(migrated).toContain(`Database: ${shown.href}`)
    expect(migrated).toMatch(/Schema migrated from version 0 to \d+\./)
  }, 120_000)

  test('in Chromium: sign up, confirm by email, set up TOTP, sign in with both, call the API, add a passkey and sign in with it', async () => {
    expect(ports.page).not.toBe(0)
    const [, ...nodeArgs] = commands.server.split(' ')
    // The guide's command, with a preload that keeps the breached-password check on this machine.
    await serve(quickDir, ['--import', pathToFileURL(join(repoRoot, 'test/support/offline-fetch.mjs')).href, ...nodeArgs], { RANGE_ENDPOINT: range.endpoint }, ports)
    const page = pageOf(ports)
    const browser = await launchBrowser()
    browsers.push(browser)
    // WebAuthn wants a secure context: http://localhost is one, an IP address is not.
    const { page: tab } = await openWithAuthenticator(browser, page, { waitForReady: false })
    const warnings: string[] = []
    tab.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
    tab.on('pageerror', (e) => warnings.push(e.message))
    const signin = tab.locator('latchkey-signin')
    const me = () => tab.evaluate(() => fetch('/api/me').then(async (r) => ({ status: r.status, body: await r.json() })))
    const email = 'ada@example.com'

    log('sign up')
    await signin.locator('button[part~="signup"]').click()
    const signup = signin.locator('form[part~="signup-form"]')
    await signup.locator('input[name="email"]').fill(email)
    await signup.locator('input[name="name"]').fill('Ada')
    await signup.locator('input[name="password"]').fill(breachedPassword)
    await signup.locator('button[type="submit"]').click()
    await expect.poll(() => signin.locator('[part~="signup-step"]').textContent()).toContain('This password has appeared in a data breach.')
    expect(range.requests.map((r) => r.padding)).toEqual([true])
    await signup.locator('input[name="password"]').fill(password)
    await signup.locator('button[type="submit"]').click()
    await expect.poll(() => signin.locator('[part~="verify-step"]').textContent()).toContain('Check your email')

    log('the confirmation email')
    await expect.poll(() => sink.mails.filter((m) => m.to.includes(email)).length).toBe(1)
    const mail = partsOf(sink.mails.find((m) => m.to.includes(email))!)
    expect(mail.subject).toContain('My App')
    const link = /https?:\/\/\S+\/auth\/password\/verify\?\S+/.exec(mail.text)?.[0]
    // Built on AUTH_URL: the page's origin, through Vite's proxy.
    expect(new URL(link!).origin).toBe(page)
    await tab.goto(link!)
    await tab.getByRole('button', { name: 'Confirm my address' }).click()
    await tab.waitForURL(`${page}/?notice=email-verified`)
    await expect.poll(async () => (await signin.locator('[part~="message"]').textContent())?.trim()).toBe('Your address is confirmed: sign in.')

    // The element's two steps: the address and Continue, then the password.
    const identifier = signin.locator('input[part~="identifier"]')
    const signInWithPassword = async () => {
      await identifier.fill(email)
      await signin.locator('button[part~="continue"]').click()
      const passwordForm = signin.locator('[part~="ways-step"] form[part~="password-form"]')
      await passwordForm.locator('input[name="password"]').fill(password)
      await passwordForm.locator('button[type="submit"]').click()
    }
    const signedIn = () => expect.poll(() => tab.locator('#me').textContent(), { timeout: 20_000 }).toBe(`The API knows you as ${email}`)
    const signOut = async () => {
      await tab.locator('latchkey-user button[part~="signout"]').click()
      await expect.poll(() => identifier.count()).toBe(1)
    }

    log('sign in with the password')
    await signInWithPassword()
    await signedIn()
    expect(await tab.locator('latchkey-user [part="name"]').textContent()).toBe('Ada')

    log('set up TOTP in <latchkey-mfa>')
    const mfa = tab.locator('latchkey-mfa')
    await mfa.locator('button[part~="enroll"]').click()
    expect(await mfa.locator('a[part="link"]').getAttribute('href')).toMatch(/^otpauth:\/\/totp\/My%20App:.*issuer=My%20App/)
    const key = (await mfa.locator('[part="secret"] code').textContent())!.replaceAll(' ', '')
    const app = new TOTP({ secret: Secret.fromBase32(key) })
    await mfa.locator('form[part~="enroll-form"] input').fill(app.generate())
    await mfa.locator('form[part~="enroll-form"] button[type="submit"]').click()
    await expect.poll(() => mfa.locator('[part="codes"] li').count()).toBe(10)
    await mfa.locator('button[part~="done"]').click()
    await expect.poll(() => mfa.locator('[part="factor"] [part="name"]').allTextContents()).toEqual(['Authenticator app'])

    log('sign out: the API answers 401')
    await signOut()
    expect(await me()).toEqual({ status: 401, body: { error: 'Unauthorized' } })

    log('sign in with the password and the code')
    await signInWithPassword()
    const step = signin.locator('[part~="mfa-step"]')
    // The code just used is spent; the app's next one (one step of skew is allowed) needs no wait.
    await step.locator('input[name="code"]').fill(app.generate({ timestamp: Date.now() + 30_000 }))
    await step.locator('button[type="submit"]').click()
    await signedIn()
    expect(await me()).toEqual({ status: 200, body: { email, name: 'Ada' } })

    log('add a passkey in <latchkey-passkeys>')
    const passkeys = tab.locator('latchkey-passkeys')
    await passkeys.locator('button[part~="add"]').click()
    await expect.poll(() => passkeys.locator('[role="status"]').textContent()).toBe('Passkey added: next time, sign in with it.')
    expect(await passkeys.locator('[part~="passkey"]').count()).toBe(1)

    log('sign out, and in with the passkey alone')
    await signOut()
    // The browser offers the passkey in the field's autofill (conditional mediation), and the
    // virtual authenticator may take that offer at once; else the address, Continue and the
    // passkey among the ways. Either way the passkey alone signs in.
    const throughTheWays = async () => {
      await identifier.fill(email, { timeout: 10_000 })
      await signin.locator('button[part~="continue"]').click({ timeout: 10_000 })
      await signin.locator('[part~="ways-step"] button[part~="passkey"]').click({ timeout: 10_000 })
    }
    await Promise.race([signedIn(), throughTheWays().catch(() => signedIn())])
    await signedIn()
    expect(await me()).toEqual({ status: 200, body: { email, name: 'Ada' } })
    expect(warnings).toEqual([])
    // Both servers ran through it all.
    expect(children.map((child) => child.exitCode ?? child.signalCode)).toEqual(children.map(() => null))
  }, 180_000)
})
