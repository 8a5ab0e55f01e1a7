/**
 * Auth.js's own browser client against latchkey, in Chromium: `next-auth/react` from next-auth 4
 * (which asks for JSON answers with a `json=true` form field) and from next-auth 5 (which sends
 * `X-Auth-Return-Redirect: 1`), each bundled into a plain page with esbuild, as an app's bundler
 * would. Both majors sign in with credentials and email without a redirect, read and update the
 * session, and sign out.
 *
 * The bundle defines `process.env` as Next.js's bundler does: the client reads
 * `process.env.NEXTAUTH_URL` and `NODE_ENV`, and a browser has no `process`. Nothing is stubbed.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { toNodeHandler } from '../../src/node/index.js'
import { browserAnd } from '../support/browser-and.js'
import type { NextAuthWindow } from './next-auth/page.js'

declare global {
  interface Window {
    nextAuth: NextAuthWindow
  }
}

const env = browserAnd()
let server: Server
let origin: string
const outbox: string[] = []
const bundles: Record<string, string> = {}

const page = (major: string) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>next-auth ${major}</title>
<div id="root"></div><script type="module" src="/${major}.js"></script></html>`

async function bundle(major: string): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./next-auth/${major}.ts`, import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"', 'process.env': '{}' },
  })
  return result.outputFiles[0].text
}

beforeAll(async () => {
  const [v4, v5] = await Promise.all([bundle('v4'), bundle('v5')])
  Object.assign(bundles, { '/v4.js': v4, '/v5.js': v5 })
  const auth = toNodeHandler(
    Latchkey({
      secret: 'next-auth-client-secret-0123456789abcdef',
      adapter: MemoryAdapter(),
      session: { strategy: 'jwt' },
      // update({ name }) renames the user in the token, as next-auth's docs show.
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          const name = (session as { name?: unknown } | undefined)?.name
          return trigger === 'update' && typeof name === 'string' ? { ...token, name } : token
        },
      },
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
      providers: [
        Credentials({
          credentials: { username: {}, password: {} },
          authorize: ({ username, password }) =>
            typeof username === 'string' && password === 'secret' ? { id: `user-${username}`, name: username, email: `${username}@example.com` } : null,
        }),
        Email({ sendVerificationRequest: ({ url }) => void outbox.push(url) }),
      ],
    }),
  )
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path.startsWith('/auth/')) return void auth(req, res)
    const script = bundles[path]
    res.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html', 'cache-control': 'no-store' })
    res.end(script ?? page(path.slice(1) || 'v4'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://localhost:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
})

const status = (p: Page) => p.locator('#status').textContent()

async function open(major: string): Promise<Page> {
  const context = await env.browser.newContext()
  const p = await context.newPage()
  p.on('pageerror', (e) => console.error(`[${major} page error]`, e.message))
  await p.goto(`${origin}/${major}`)
  await expect.poll(() => status(p)).toBe('unauthenticated - -')
  return p
}

test.each([
  ['next-auth 4', 'v4'],
  ['next-auth 5', 'v5'],
])('%s: signIn("credentials", { redirect: false }), getSession, update, signOut({ redirect: false })', async (_name, major) => {
  const p = await open(major)

  const refused = (await p.evaluate(() => window.nextAuth.signIn('credentials', { username: 'ada', password: 'wrong', redirect: false }))) as Record<string, unknown>
  expect(refused).toMatchObject({ ok: false, status: 401, error: 'CredentialsSignin', url: null })
  expect(await status(p)).toBe('unauthenticated - -')

  const signedIn = (await p.evaluate(() => window.nextAuth.signIn('credentials', { username: 'ada', password: 'secret', redirect: false, callbackUrl: '/home' }))) as Record<string, unknown>
  expect(signedIn).toMatchObject({ ok: true, status: 200, url: `${origin}/home` })
  expect(signedIn.error ?? null).toBeNull()
  // signIn refreshed the provider's session itself.
  await expect.poll(() => status(p)).toBe('authenticated ada@example.com ada')
  expect(await p.evaluate(() => window.nextAuth.getSession())).toMatchObject({ user: { email: 'ada@example.com', name: 'ada' } })

  const updated = await p.evaluate(() => window.nextAuth.update({ name: 'Ada Lovelace' }))
  expect(updated).toMatchObject({ user: { name: 'Ada Lovelace' } })
  await expect.poll(() => status(p)).toBe('authenticated ada@example.com Ada Lovelace')
  // The new name is in the cookie: a fresh read has it.
  expect(await p.evaluate(() => window.nextAuth.getSession())).toMatchObject({ user: { name: 'Ada Lovelace' } })

  const out = (await p.evaluate(() => window.nextAuth.signOut({ redirect: false, callbackUrl: '/bye' }))) as Record<string, unknown>
  expect(out).toEqual({ url: `${origin}/bye` })
  await expect.poll(() => status(p)).toBe('unauthenticated - -')
  expect(await p.evaluate(() => window.nextAuth.getSession())).toBeNull()
  await p.context().close()
})

test.each([
  ['next-auth 4', 'v4'],
  ['next-auth 5', 'v5'],
])('%s: signIn("email", { redirect: false }) sends the link, which signs the browser in', async (_name, major) => {
  const p = await open(major)
  const email = `${major}@example.com`
  const sent = (await p.evaluate((email) => window.nextAuth.signIn('email', { email, redirect: false, callbackUrl: '/welcome' }), email)) as Record<string, unknown>
  expect(sent).toMatchObject({ ok: true, status: 200 })
  expect(String(sent.url)).toMatch(new RegExp(`^${origin}/auth/verify-request\\?`))
  const link = outbox.at(-1)!
  expect(link).toContain(encodeURIComponent(email))
  await p.goto(link)
  await p.waitForURL(`${origin}/welcome`)
  await p.goto(`${origin}/${major}`)
  await expect.poll(() => status(p)).toBe(`authenticated ${email} -`)
  await p.context().close()
})
