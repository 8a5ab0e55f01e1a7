/**
 * The passkey tests' own app: a node:http server on 127.0.0.1 that serves a tiny page (an input
 * with `autocomplete="username webauthn"`), the page script bundled with esbuild, and latchkey
 * under /auth with a memory adapter. Browsers open it as http://localhost:PORT (RP ID `localhost`).
 */
import { createServer, type Server } from 'node:http'
import type { Browser } from 'playwright-core'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { browserAnd } from '../../support/browser-and.js'
import { MemoryAdapter } from '../../../src/adapters/memory.js'
import Passkey from '../../../src/providers/passkey.js'
import { toNodeHandler } from '../../../src/node/index.js'
import { Latchkey, type Handler } from '../../../src/server/index.js'
import type { Adapter, AuthConfig, Logger } from '../../../src/core/types.js'

export const secret = 'passkey-test-secret-0123456789abcdef'

const html = `<!doctype html><meta charset="utf-8"><title>passkeys</title>
<label>Email <input id="username" name="username" autocomplete="username webauthn"></label>
<script type="module" src="/app.js"></script>`

let bundle: Promise<string> | undefined
/** The page script, bundled once per test file. */
export function pageScript(): Promise<string> {
  bundle ??= build({
    entryPoints: [fileURLToPath(new URL('./page.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
  }).then((r) => r.outputFiles[0].text)
  return bundle
}

export interface PasskeyApp<A extends Adapter = MemoryAdapter> {
  handler: Handler
  adapter: A
  logs: string[]
  /** Same adapter and secret, other configuration: for wrong-origin and wrong-RP-ID handlers. */
  variant(config: Partial<AuthConfig>): Handler
}

export function passkeyApp<A extends Adapter = MemoryAdapter>(config: Partial<AuthConfig> = {}, adapter: A = MemoryAdapter() as unknown as A): PasskeyApp<A> {
  const logs: string[] = []
  const logger: Logger = {
    error: (e) => logs.push(`error ${e.name}: ${e.message}`),
    warn: (c) => logs.push(`warn ${c}`),
    debug: () => {},
  }
  const base = (extra: Partial<AuthConfig>): AuthConfig => ({ secret, adapter, logger, providers: [Passkey()], ...config, ...extra })
  return { handler: Latchkey(base({})), adapter, logs, variant: (extra) => Latchkey(base(extra)) }
}

export interface RunningApp {
  server: Server
  port: number
  origin: string
  close(): Promise<void>
}

/** Serves the page, its script and `handler` (swappable through `app.handler`). */
export async function serve(app: { handler: Handler }): Promise<RunningApp> {
  const script = await pageScript()
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html)
    if (path === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
    if (path.startsWith('/auth')) return void toNodeHandler((r) => app.handler(r))(req, res)
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    server,
    port,
    origin: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/**
 * The usual set-up of a passkey test file: Chromium, and the app `make` gives served, before the
 * first test (its other `beforeAll` hooks run after this one); both closed after the last. Read
 * the fields inside tests and hooks.
 */
export function browserAndPasskeyApp(make: () => PasskeyApp = () => passkeyApp()): { browser: Browser; app: PasskeyApp; running: RunningApp } {
  const env = {} as { app: PasskeyApp }
  const started = browserAnd(() => serve((env.app = make())))
  return {
    get browser() {
      return started.browser
    },
    get running() {
      return started.server
    },
    get app() {
      return env.app
    },
  }
}
