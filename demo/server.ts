/**
 * The demo site (`npm start`): everything latchkey does, on one laptop.
 *
 * - http://localhost:3000/          the app: a single-page app built with Vite (`import … from 'latchkey'`)
 * - /drop-in.html                   the same sign-in with only `<script src="/latchkey.iife.js">`
 * - /outbox                         the sign-in emails (also sent by SMTP when SMTP_URL is set)
 * - /auth/…                         latchkey's server, on PGlite in <LATCHKEY_DATA_DIR>/db or DATABASE_URL
 * - http://127.0.0.1:3001           the Demo IdP (OpenID Connect), in a child process
 *
 * Ctrl-C stops every part (web server, IdP, database flushed) and leaves the data in place.
 */
import type { Server } from 'node:http'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { openDatabase, type OpenedAdapter } from '../src/adapters/postgres/index.js'
import { buildBrowser } from './build.js'
import { printReady } from './console.js'
import { settings } from './config.js'
import { startIdpChild, type IdpChild } from './idp-child.js'
import { demoUsers } from './users.js'

// PGlite is one large WebAssembly module: compiling each function on first use, with the baseline
// compiler only, opens the database in a third of the time. Plenty fast for a demo's queries.
setFlagsFromString('--wasm-lazy-compilation')
setFlagsFromString('--liftoff-only')

const since = () => `${(performance.now() / 1000).toFixed(2)} s`
const parts: { server?: Server; idp?: IdpChild; db?: OpenedAdapter } = {}

// Ctrl-C at any moment, even while starting, stops whatever runs and leaves the data in place.
let stopping: Promise<void> | undefined
let stopAt = 0
function stop(reason: string, code = 0): Promise<void> {
  if (stopping) {
    // One Ctrl-C can arrive twice (from the terminal, and forwarded by npm): only a later one forces.
    if (Date.now() - stopAt > 1500) {
      console.log('[demo] forced exit')
      process.exit(1)
    }
    return stopping
  }
  stopAt = Date.now()
  stopping = (async () => {
    console.log(`\n[demo] ${reason}: stopping the web server, the Demo IdP and the database…`)
    await booted
    const { server, idp, db } = parts
    const closed = server && new Promise<void>((resolve) => server.close(() => resolve()))
    server?.closeAllConnections()
    await Promise.all([closed, idp?.stop()])
    await db?.close()
    if (db) console.log(`[demo] stopped; the data stays in ${db.location}`)
    process.exit(code)
  })()
  return stopping
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(signal))

// The three slow parts boot side by side: browser build (when stale), Demo IdP, database.
const took: Record<string, string> = {}
const timed = <T>(name: string, work: Promise<T>) => work.finally(() => (took[name] = since()))
const booted = Promise.allSettled([
  timed('browser', buildBrowser(settings.root, settings.buildDir)),
  timed('idp', startIdpChild(settings).then((idp) => (parts.idp = idp))),
  timed('database', openDatabase(settings.databaseUrl ?? '', { dir: join(settings.dataDir, 'db') }).then((db) => (parts.db = db))),
])
// latchkey's server modules load while those boot.
const [{ createAuth, demoAccount }, { createWebServer }, { createOutbox }] = await Promise.all([import('./auth.js'), import('./http.js'), import('./outbox.js')])
const [build] = await booted
const failed = (await booted).filter((p) => p.status === 'rejected')
if (failed.length) {
  for (const part of failed) console.error(`[demo] could not start: ${(part.reason as Error)?.message ?? part.reason}`)
  await stop('start failed', 1)
}
if (stopping) await stopping
const { idp, db } = parts as Required<typeof parts>

const outbox = createOutbox()
const email = settings.smtpUrl ? `outbox + SMTP (${new URL(settings.smtpUrl).host})` : 'outbox only (set SMTP_URL to send them too)'
const server = createWebServer({
  auth: createAuth(settings, db, idp.issuer, outbox),
  buildDir: settings.buildDir,
  outbox,
  info: () => ({
    idp: { issuer: idp.issuer, users: demoUsers.map(({ email, password, name }) => ({ email, password, name })) },
    account: { username: demoAccount.username, password: demoAccount.password },
    database: db.location,
    email,
  }),
})
await new Promise<void>((resolve, reject) => server.once('error', reject).listen(settings.port, () => resolve())).then(
  () => void (parts.server = server),
  (error: Error) => stop(`could not listen on port ${settings.port} (${error.message}; set PORT to use another)`, 1),
)

const built = build.status === 'fulfilled' && build.value.built ? `built in ${(build.value.ms / 1000).toFixed(1)} s` : 'up to date'
printReady({
  ready: since(),
  detail: `database up at ${took.database}, Demo IdP at ${took.idp}, browser files ${built}`,
  origin: settings.origin,
  idp: idp.issuer,
  database: settings.databaseUrl ? `PostgreSQL at ${db.location}` : `PGlite in ${db.location}`,
  email,
})
