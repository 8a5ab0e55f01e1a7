/**
 * docs/guides/local-openid-provider.md, followed: the Demo IdP started with `npm run idp` (its own
 * process, as a reader starts it), the guide's latchkey configuration taken from the page as it
 * stands (only the two ports changed to free ones), and a whole OpenID Connect sign-in through it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { toNodeHandler } from '../../src/node/index.js'
import type { LatchkeyHandler } from '../../src/server/index.js'
import { codeBlocks } from '../support/code-blocks.js'
import { alice, Browser, sessionOf, signIn } from '../oauth/harness.js'

const root = join(import.meta.dirname, '../..')
const guideFile = 'docs/guides/local-openid-provider.md'
const guide = readFileSync(join(root, guideFile), 'utf8')

let idp: ChildProcess
let idpOutput = ''
let issuer: string
let app: Server
let appOrigin: string

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** `npm run idp`, its own process group so that npm and the IdP under it stop together. */
async function startIdp(port: number): Promise<void> {
  idp = spawn('npm', ['run', 'idp'], { cwd: root, env: { ...process.env, IDP_PORT: String(port), ORIGIN: appOrigin }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  idp.stdout!.on('data', (chunk: Buffer) => (idpOutput += chunk))
  idp.stderr!.on('data', (chunk: Buffer) => (idpOutput += chunk))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run idp did not start:\n${idpOutput}`)), 50_000)
    idp.stdout!.on('data', () => idpOutput.includes('Press Ctrl-C to stop.') && (clearTimeout(timer), resolve()))
    idp.once('exit', (code) => (clearTimeout(timer), reject(new Error(`npm run idp exited (${code}):\n${idpOutput}`))))
  })
  issuer = /issuer\s+(\S+)/.exec(idpOutput)![1]
}

/** The guide's configuration block, with its two addresses moved to this run's ports. */
async function guideAuth(): Promise<LatchkeyHandler> {
  const block = codeBlocks(guideFile, guide).blocks.find((b) => b.code.includes('export const auth'))!
  const replace = (code: string, from: string, to: string) => {
    expect(code.split(from), `${guideFile} should name ${from} once in its configuration block`).toHaveLength(2)
    return code.replace(from, to)
  }
  const code = replace(replace(block.code, "'http://127.0.0.1:3001'", `'${issuer}'`), "'http://localhost:3000'", `'${appOrigin}'`)
  const dir = join(root, 'test-results/local-idp-guide')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'auth.ts'), code)
  return ((await import(join(dir, 'auth.ts'))) as { auth: LatchkeyHandler }).auth
}

beforeAll(async () => {
  const [appPort, idpPort] = [await freePort(), await freePort()]
  appOrigin = `http://localhost:${appPort}`
  await startIdp(idpPort)
  process.env.AUTH_SECRET = 'a-local-idp-guide-secret-0123456789'
  const handler = toNodeHandler(await guideAuth())
  app = createServer((req, res) => void handler(req, res))
  await new Promise<void>((resolve) => app.listen(appPort, '127.0.0.1', resolve))
}, 60_000)

afterAll(async () => {
  await new Promise((resolve) => (app ? app.close(resolve) : resolve(null)))
  if (idp?.exitCode === null) {
    const exited = new Promise((resolve) => idp.once('exit', resolve))
    process.kill(-idp.pid!, 'SIGTERM')
    await exited
  }
})

test('npm run idp prints what the guide shows: the issuer on the port asked for, the client, the users', () => {
  expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  expect(idpOutput).toContain(`redirect URI   ${appOrigin}/auth/callback/demo-idp`)
  for (const name of ['client id', 'client secret', 'users']) {
    const line = idpOutput.split('\n').find((l) => l.trimStart().startsWith(name))!
    expect(guide, `the guide's copy of "${line.trim()}"`).toContain(line)
  }
})

test("the guide's configuration signs Alice in at the Demo IdP and back into the app", async () => {
  const browser = new Browser()
  const finished = await signIn(browser, { auth: `${appOrigin}/auth` }, 'demo-idp', alice)
  expect(finished.error).toBeUndefined()
  expect(finished.location).toBe(`${appOrigin}/dashboard`)
  const session = await sessionOf(browser, { auth: `${appOrigin}/auth` })
  expect(session?.user).toMatchObject({ email: 'alice@example.com', name: 'Alice Example', image: `${issuer}/avatars/alice.svg` })
})
