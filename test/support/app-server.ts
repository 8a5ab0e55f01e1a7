/**
 * The app the browser tests drive: a node:http server that serves the built browser files and
 * the test pages, and mounts `Latchkey()` under /auth with the memory adapter, a credentials
 * provider (any username, password "secret"), an email provider whose links land in `outbox`,
 * and a few button-only providers. The server's clock is `Date.now() + offset`; its `Date`
 * header follows that clock, as a real server's does. GET /auth/session requests are counted.
 * An app's own service worker with an offline page stands beside them (`appWorker`).
 */
import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize } from 'node:path'
import type { AddressInfo } from 'node:net'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter, AuthConfig, Provider } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import Password, { type PasswordEmail, type PasswordOptions } from '../../src/providers/password.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { organizations as organizationsPlugin, type OrganizationsOptions } from '../../src/plugins/organizations/index.js'
import { oauthServer as oauthServerPlugin } from '../../src/plugins/oauth-server/index.js'
import { sso as ssoPlugin } from '../../src/plugins/sso/index.js'
import { scim as scimPlugin } from '../../src/plugins/scim/index.js'
import { requireFreshSession, requireSession, toNodeHandler } from '../../src/node/index.js'

export interface SessionRequest {
  /** Server clock, ms. */
  at: number
  /** The access extended (or cleared) the session: it set the cookie. */
  extended: boolean
}

export interface AppServer {
  url: string
  outbox: { identifier: string; url: string }[]
  /** The `Password()` provider's emails (`password` option), oldest first. */
  passwordOutbox: PasswordEmail[]
  /** The other messages latchkey writes, delivered through the email provider's `sendMail` (the email change's), oldest first. */
  mailOutbox: { to: string; subject: string; text: string; html: string }[]
  sessionRequests: SessionRequest[]
  /** Moves the server's clock forward. */
  advance(ms: number): void
  now(): number
  /** Holds every GET /auth/session until the returned function is called. */
  holdSessions(): () => void
  /** Resolves once no request is in flight (every answer sent, or its connection lost); fails naming those still open after 20 s. */
  idle(): Promise<void>
  /** Requests by `METHOD /path` (and ` (proof)` for one carrying a DBSC proof), counted from the start. */
  requests: Map<string, number>
  /** Off: every request under /auth and /api/ loses its connection, as when the network is down. */
  setReachable(on: boolean): void
  /** Ends every session of `user-<username>` in the store, as a sign-out on another device does. */
  endSessions(username: string): Promise<void>
  /** The server's store (a memory adapter), for a test that plants records in it. */
  adapter: Adapter
  close(): Promise<void>
}

export interface AppServerOptions {
  maxAge?: number
  updateAge?: number
  /** Initial clock offset from real time, ms. */
  offset?: number
  /**
   * Mount a plain Auth.js server (@auth/core, JWT sessions, credentials only) under /api/auth
   * instead of latchkey: no Latchkey-Session header, to show the SDK does not rely on it.
   */
  authjs?: boolean
  /** More scripts to serve, by path (a worker the test built). */
  scripts?: Record<string, string>
  /** More HTML pages to serve, by path. */
  pages?: Record<string, string>
  /** Paths that answer 302 to a URL, as an app's open redirect does. */
  redirects?: Record<string, string>
  /** Device-bound sessions (DBSC), with this short cookie's lifetime in seconds. */
  deviceBound?: number
  /** Send the sign-in emails through this SMTP server (test/support/smtp-sink.ts) too, with the built-in Nodemailer provider. */
  smtpPort?: number
  /** More providers, made once the app's URL is known (an IdP's client needs its redirect URI). */
  providers?: (appUrl: string) => Promise<Provider[]> | Provider[]
  /** Second factors on (`mfa: true`). */
  mfa?: boolean
  /**
   * A `Password()` provider whose emails land in `passwordOutbox`; the breached-password check is
   * off unless these options give it an endpoint (a local range server: no test calls the internet).
   */
  password?: boolean | Omit<PasswordOptions, 'sendEmail'>
  /** Sessions another library made, read until a date (test/migrate). */
  migrateFrom?: AuthConfig['migrateFrom']
  /** The session strategy: database (the default here) or JWT. */
  strategy?: 'database' | 'jwt'
  /** The server's own sign-in and error pages, where the app's page (`/`) stands in by default. */
  builtInPages?: boolean
  /** The organizations plugin (src/plugins/organizations), its store in the memory adapter; its invitations land in `mailOutbox`. */
  organizations?: boolean | OrganizationsOptions
  /**
   * The authorization server (src/plugins/oauth-server), the app's URL its issuer, with one public
   * client `cli` ("Ada’s CLI", redirect `http://127.0.0.1/callback` on any port, an https logo)
   * and the scopes `tools:read`, `tools:write` for the resource `<url>/mcp`.
   */
  oauthServer?: boolean
  /** Enterprise sign-in (src/plugins/sso) over the organizations plugin (on, with its defaults, where `organizations` is not given); IdPs on loopback http allowed. */
  sso?: boolean
  /** SCIM provisioning (src/plugins/scim) over the organizations plugin (on, with its defaults, where `organizations` is not given). */
  scim?: boolean
}

const dist = join(import.meta.dirname, '../../dist')
const types: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.html': 'text/html; charset=utf-8', '.svg': 'image/svg+xml', '.json': 'application/json' }

const logo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#fff"/></svg>`

/**
 * An app's own service worker, as a PWA has: it caches an offline page and shows it when a page
 * load fails. `?latchkey` includes latchkey's worker, through importScripts (classic) or import
 * (the module worker, app-sw.mjs), before its own fetch listener.
 */
const appWorker = (module: boolean, latchkey: boolean) => `${
  !latchkey ? '' : module ? "import { installLatchkey } from '/latchkey-sw-module.js'\ninstallLatchkey({ basePath: '/auth' })" : "importScripts('/latchkey-sw-import.js')\nLatchkeyWorker.installLatchkey({ basePath: '/auth' })"
}
self.addEventListener('install', (event) => event.waitUntil(caches.open('app').then((cache) => cache.add('/offline.html')).then(() => self.skipWaiting())))
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))
self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return
  event.respondWith(fetch(event.request).catch(() => caches.match('/offline.html')))
})
`
const offlinePage = `<!doctype html><html lang="en"><meta charset="utf-8"><title>offline</title><h1>The app's offline page</h1></html>`

/**
 * The ESM test page, light or dark as the browser asks (its `color-scheme`, its own background
 * painted, as an app's page): `?nosw` runs the client without a service worker; `?bfcache` lets the
 * back-forward cache keep it; `?appsw=<script>` registers
 * the app's own worker first and leaves latchkey's unregistered unless `&sw=<script>` asks.
 */
const modulePage = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="color-scheme" content="light dark"><title>latchkey test</title>
<style>html{background:Canvas;color:CanvasText}</style>
<latchkey-signin></latchkey-signin>
<latchkey-user></latchkey-user>
<latchkey-mfa></latchkey-mfa>
<script type="module">
import { createAuthClient, accounts, emailCodes, mfa, password, phoneCodes, sessions } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
const params = new URLSearchParams(location.search)
const appsw = params.get('appsw')
if (appsw) await navigator.serviceWorker.register(appsw, { type: appsw.includes('.mjs') ? 'module' : 'classic' })
// \`client.use(plugin)\`: a test adds a stand-in plugin after the page made its client.
const plugins = [mfa(), password(), emailCodes(), phoneCodes(), sessions(), accounts(), { name: 'use', setup: (kernel) => kernel.use }]
if (params.has('passkey')) plugins.push((await import('/latchkey-passkey.js')).passkey())
const client = createAuthClient({ basePath: params.get('base') ?? '/auth', serviceWorker: params.has('nosw') ? false : params.get('sw') ?? (appsw ? true : '/latchkey-sw.js'), plugins })
window.client = client
window.createAuthClient = createAuthClient
window.changes = []
client.onSessionChange((s) => window.changes.push({ at: Date.now(), email: s?.user?.email ?? null, stale: !!s?.stale }))
defineElements(client)
// How many times this page came back from the back-forward cache.
window.restored = 0
addEventListener('pageshow', (e) => { if (e.persisted) window.restored++ })
window.ready = true
</script></html>`

/** The drop-in page: one script tag, no build step. `worker`: the data-service-worker attribute, if any. */
const dropInPage = (worker: string | undefined, passkey: boolean) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>latchkey drop-in</title>
<script src="/latchkey.iife.js" data-base-path="/auth"${worker === undefined ? '' : ` data-service-worker="${worker}"`}></script>${passkey ? '\n<script src="/latchkey-passkey.iife.js"></script>' : ''}
<latchkey-signin></latchkey-signin>
<latchkey-user></latchkey-user>
</html>`

/** The email provider: into `outbox`, and through the SMTP server at `smtpPort` where there is one; latchkey's own messages into `mailOutbox`. */
function emailProvider(smtpPort: number | undefined, outbox: AppServer['outbox'], mailOutbox: AppServer['mailOutbox']) {
  const smtp = smtpPort === undefined ? undefined : Nodemailer({ server: { host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true }, from: 'latchkey@example.test' })
  return Email({
    async sendVerificationRequest(params) {
      outbox.push({ identifier: params.identifier, url: params.url })
      await smtp?.sendVerificationRequest(params)
    },
    sendMail: async (message) => void mailOutbox.push(message),
  })
}

export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  let offset = options.offset ?? 0
  const now = () => Date.now() + offset
  const outbox: AppServer['outbox'] = []
  const passwordOutbox: PasswordEmail[] = []
  const mailOutbox: AppServer['mailOutbox'] = []
  const sessionRequests: SessionRequest[] = []
  const requests = new Map<string, number>()
  let held: Promise<void> | undefined
  /** The requests not yet answered, by `METHOD /path`. */
  const unanswered = new Set<{ key: string }>()
  const idlers: (() => void)[] = []
  let reachable = true
  const orgs = options.organizations || options.sso || options.scim ? organizationsPlugin(options.organizations === true || !options.organizations ? undefined : options.organizations) : undefined
  const plugins = [
    ...(orgs ? [orgs] : []),
    ...(orgs && options.sso ? [ssoPlugin({ organizations: orgs, allowLoopbackHttp: true })] : []),
    ...(orgs && options.scim ? [scimPlugin()] : []),
    ...(options.oauthServer
      ? [
          oauthServerPlugin({
            clients: [{ clientId: 'cli', name: 'Ada’s CLI', redirectUris: ['http://127.0.0.1/callback'], logoUri: 'https://cli.example.com/logo.svg' }],
            scopes: { 'tools:read': { en: 'Read your tools', ar: 'قراءة أدواتك' }, 'tools:write': 'Change your tools' },
            // Loopback, whatever port the server gets.
            resources: ['http://localhost/mcp'],
          }),
        ]
      : []),
  ]
  const adapter = MemoryAdapter({ plugins })
  let auth: ReturnType<typeof toNodeHandler>
  let signedIn: ReturnType<typeof requireSession>
  let recent: ReturnType<typeof requireFreshSession>

  const server = createServer(async (req, res) => {
    const { pathname: path, searchParams } = new URL(req.url ?? '/', 'http://x')
    // A DBSC proof is counted apart: a renewal is one proof (after one request for the challenge).
    const key = `${req.method} ${path}${req.headers['secure-session-response'] ? ' (proof)' : ''}`
    requests.set(key, (requests.get(key) ?? 0) + 1)
    const entry = { key }
    unanswered.add(entry)
    res.once('close', () => unanswered.delete(entry) && !unanswered.size && idlers.splice(0).forEach((idle) => idle()))
    // A real server stamps Date with its own clock; the worker reads the skew from it.
    res.setHeader('date', new Date(now()).toUTCString())
    if (!reachable && (path.startsWith(base + '/') || path.startsWith('/api/'))) return void req.socket.destroy()
    if (path === base || path.startsWith(base + '/')) {
      if (req.method === 'GET' && path === base + '/session') {
        await held
        const at = now()
        const writeHead = res.writeHead.bind(res)
        res.writeHead = ((status: number, headers?: Record<string, unknown>) => {
          sessionRequests.push({ at, extended: !!headers && 'set-cookie' in headers })
          return writeHead(status, headers as any)
        }) as typeof res.writeHead
      }
      return auth(req, res)
    }
    if (path === '/api/me') return signedIn(req, res, () => send(res, 200, JSON.stringify({ email: signedIn.session(req).user.email }), '.json'))
    if (path === '/api/fresh') return recent(req, res, () => send(res, 200, JSON.stringify({ email: recent.session(req).user.email }), '.json'))
    if (path === '/acme.svg') return send(res, 200, logo, '.svg')
    const location = options.redirects?.[path]
    if (location !== undefined) return void res.writeHead(302, { location }).end()
    const script = options.scripts?.[path]
    if (script !== undefined) return send(res, 200, script, '.js')
    const page = options.pages?.[path]
    if (page !== undefined) return send(res, 200, page, '.html')
    if (path === '/app-sw.js' || path === '/app-sw.mjs') return send(res, 200, appWorker(path.endsWith('.mjs'), searchParams.has('latchkey')), '.js')
    if (path === '/offline.html') return send(res, 200, offlinePage, '.html')
    if (path === '/drop-in.html') return send(res, 200, dropInPage(searchParams.has('nosw') ? 'false' : searchParams.has('default') ? undefined : '/latchkey-sw.js', searchParams.has('passkey')), '.html')
    if (extname(path) === '.js') {
      const file = normalize(join(dist, path))
      if (!file.startsWith(dist)) return send(res, 404, 'not found', '.html')
      try {
        return send(res, 200, await readFile(file), '.js')
      } catch {
        return send(res, 404, 'not found', '.html')
      }
    }
    // `?bfcache`: no `no-store`, which keeps a page out of Chromium's back-forward cache.
    return send(res, 200, modulePage, '.html', searchParams.has('bfcache') ? 'no-cache' : undefined)
  })
  await new Promise<void>((resolve) => server.listen(0, resolve))
  const { port } = server.address() as AddressInfo
  // "localhost" is a secure context, which service workers need.
  const url = `http://localhost:${port}`
  const config: AuthConfig = {
    secret: 'latchkey-e2e-secret-0123456789abcdef',
    adapter,
    session: {
      strategy: options.strategy ?? 'database',
      maxAge: options.maxAge ?? 3600,
      updateAge: options.updateAge ?? 600,
      deviceBound: options.deviceBound ? { cookieMaxAge: options.deviceBound } : false,
    },
    now,
    ...(plugins.length && { plugins }),
    ...(options.oauthServer && { origin: url }),
    ...(options.mfa && { mfa: true }),
    ...(options.migrateFrom && { migrateFrom: options.migrateFrom }),
    pages: options.builtInPages ? {} : { signIn: '/', error: '/' },
    // An update may set `theme`; it lives in the answer to that update (database sessions keep no extra data).
    callbacks: {
      session: ({ session, trigger, newSession }) =>
        trigger === 'update' && typeof (newSession as { theme?: unknown })?.theme === 'string' ? { ...session, theme: (newSession as { theme: string }).theme } : session,
    },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
        authorize: ({ username, password }) =>
          typeof username === 'string' && username && password === 'secret' ? { id: `user-${username}`, name: username, email: `${username}@example.com` } : null,
      }),
      emailProvider(options.smtpPort, outbox, mailOutbox),
      { id: 'acme', name: 'Acme', type: 'oidc', issuer: 'https://acme.invalid', clientId: 'x', jwks_endpoint: undefined, style: { brandColor: 'rgb(10, 20, 30)', logo: '/acme.svg' } },
      { id: 'legacy', name: 'Legacy', type: 'oauth', clientId: 'x', jwks_endpoint: undefined, authorization: 'https://legacy.invalid/authorize', style: { bg: 'rgb(200, 0, 0)', text: 'rgb(255, 255, 0)' } },
      { id: 'passkey', name: 'Passkey', type: 'webauthn' } as any,
      ...(options.password ? [Password({ breached: false, ...(options.password !== true && options.password), sendEmail: (message) => void passwordOutbox.push(message) })] : []),
      ...((await options.providers?.(url)) ?? []),
    ],
  }
  const base = options.authjs ? '/api/auth' : '/auth'
  const latchkey = Latchkey(config)
  auth = toNodeHandler(options.authjs ? await authjsHandler(options) : latchkey)
  // The app's own API: who is signed in, behind requireSession.
  signedIn = requireSession(latchkey)
  // An action that needs a recent sign-in (session.freshAge, an hour by default).
  recent = requireFreshSession(latchkey)

  return {
    url,
    outbox,
    passwordOutbox,
    mailOutbox,
    sessionRequests,
    requests,
    advance: (ms) => void (offset += ms),
    setReachable: (on) => void (reachable = on),
    now,
    endSessions: async (username) => void (await adapter.deleteSessionsByUserId!(`user-${username}`)),
    adapter,
    idle: () =>
      !unanswered.size
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
          const late = setTimeout(() => reject(new Error(`still unanswered after 20 s: ${[...unanswered].map((e) => e.key).join(', ')}`)), 20_000)
          idlers.push(() => resolve(clearTimeout(late)))
        }),
    holdSessions() {
      let release!: () => void
      held = new Promise<void>((resolve) => (release = resolve))
      return () => {
        held = undefined
        release()
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

async function authjsHandler(options: AppServerOptions): Promise<(request: Request) => Promise<Response>> {
  const { Auth } = await import('@auth/core')
  const { default: AuthjsCredentials } = await import('@auth/core/providers/credentials')
  const config = {
    secret: 'latchkey-e2e-secret-0123456789abcdef',
    trustHost: true,
    basePath: '/api/auth',
    session: { strategy: 'jwt' as const, maxAge: options.maxAge ?? 3600, updateAge: options.updateAge ?? 600 },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    // An update may rename the user, as in latchkey's JWT tests.
    callbacks: {
      jwt: ({ token, trigger, session }: { token: Record<string, unknown>; trigger?: string; session?: { name?: unknown } }) =>
        trigger === 'update' && typeof session?.name === 'string' ? { ...token, name: session.name } : token,
    },
    providers: [
      AuthjsCredentials({
        credentials: { username: {}, password: {} },
        authorize: async ({ username, password }) =>
          typeof username === 'string' && username && password === 'secret' ? { id: `user-${username}`, name: username, email: `${username}@example.com` } : null,
      }),
    ],
  }
  return (request) => Auth(request, config)
}

function send(res: import('node:http').ServerResponse, status: number, body: string | Buffer, ext: string, cacheControl = 'no-store') {
  res.writeHead(status, { 'content-type': types[ext] ?? 'application/octet-stream', 'cache-control': cacheControl })
  res.end(body)
}
