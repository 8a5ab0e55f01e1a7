/**
 * The demo site (`npm start`): latchkey's server on the embedded PGlite database (or DATABASE_URL),
 * with a credentials demo user and email sign-in whose links land in an outbox page.
 */
import { createServer } from 'node:http'
import { openDatabase } from '../src/adapters/postgres/index.js'
import Credentials from '../src/providers/credentials.js'
import Email from '../src/providers/email.js'
import OIDC from '../src/providers/oidc.js'
import { demoUsers, startIdp } from '../test/support/idp.js'
import { Latchkey, toNodeHandler, toRequest } from '../src/server/index.js'
import type { SendVerificationRequestParams } from '../src/core/types.js'
import { escapeHtml } from '../src/server/pages.js'

const port = Number(process.env.PORT ?? 3000)
const origin = process.env.ORIGIN ?? `http://localhost:${port}`
const started = Date.now()

const outbox: Array<Pick<SendVerificationRequestParams, 'identifier' | 'url' | 'expires'>> = []
const db = await openDatabase()
const idp = await startIdp({
  port: Number(process.env.IDP_PORT ?? 3001),
  clients: [{ client_id: 'latchkey-demo', client_secret: 'latchkey-demo-secret', redirect_uris: [`${origin}/auth/callback/demo-idp`] }],
})

const auth = Latchkey({
  secret: process.env.AUTH_SECRET ?? 'latchkey-demo-secret-not-for-production',
  adapter: db,
  origin,
  providers: [
    OIDC({ id: 'demo-idp', name: 'Demo IdP', issuer: idp.issuer, clientId: 'latchkey-demo', clientSecret: 'latchkey-demo-secret', style: { brandColor: '#5b3cc4' } }),
    Credentials({
      name: 'Demo account',
      credentials: { username: { label: 'Username', placeholder: 'demo' }, password: { label: 'Password', type: 'password', placeholder: 'demo' } },
      authorize: ({ username, password }) =>
        username === 'demo' && password === 'demo' ? { id: 'demo-user', name: 'Demo User', email: 'demo@example.com' } : null,
    }),
    Email({
      sendVerificationRequest({ identifier, url, expires }) {
        outbox.unshift({ identifier, url, expires })
        console.log(`[demo] sign-in link for ${identifier}: ${url}`)
      },
    }),
  ],
})
const authNode = toNodeHandler(auth)

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{background:#f3f3f3;padding:.1rem .3rem}</style></head><body>${body}</body></html>`

const server = createServer(async (req, res) => {
  const path = (req.url ?? '/').split('?')[0]
  if (path.startsWith('/auth/') || path === '/auth') return authNode(req, res)
  if (path === '/outbox') {
    const rows = outbox.map((m) => `<li><b>${escapeHtml(m.identifier)}</b> (until ${m.expires.toISOString()})<br><a href="${escapeHtml(m.url)}">${escapeHtml(m.url)}</a></li>`).join('')
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    return res.end(page('Outbox', `<h1>Outbox</h1><p>Emails the demo has sent, newest first.</p><ul>${rows || '<li>None yet.</li>'}</ul><p><a href="/">Home</a></p>`))
  }
  if (path === '/') {
    const request = toRequest(req)
    const session = await (await auth(new Request(new URL('/auth/session', origin), { headers: request.headers }))).json()
    const providers = Object.values(await (await auth(new Request(new URL('/auth/providers', origin)))).json()) as Array<{ id: string; name: string; type: string }>
    const who = session
      ? `<p>Signed in as <b>${escapeHtml(session.user.name ?? session.user.email)}</b> (${escapeHtml(session.user.email)}), session until ${escapeHtml(session.expires)}.</p><p><a href="/auth/signout">Sign out</a></p>`
      : `<p>Not signed in. <a href="/auth/signin?callbackUrl=/">Sign in</a> (the demo account is <code>demo</code> / <code>demo</code>; the Demo IdP knows <code>alice@example.com</code> / <code>alice-password</code>; email links appear in the <a href="/outbox">outbox</a>).</p>`
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    return res.end(page('latchkey demo', `<h1>latchkey demo</h1>${who}<h2>Providers</h2><ul>${providers.map((p) => `<li>${escapeHtml(p.name)} <code>${escapeHtml(p.type)}</code></li>`).join('')}</ul><p><a href="/outbox">Outbox</a></p>`))
  }
  res.writeHead(404, { 'content-type': 'text/plain' })
  res.end('Not found')
})

server.listen(port, () => {
  console.log(`[demo] latchkey demo on ${origin} (ready in ${Date.now() - started} ms)`)
  console.log(`[demo] database: ${db.location}`)
  console.log(`[demo] Demo IdP (OpenID Connect) on ${idp.issuer}: ${demoUsers.map((u) => `${u.email} / ${u.password}`).join(', ')}`)
  console.log(`[demo] outbox: ${origin}/outbox   sign in: ${origin}/auth/signin`)
})

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return
    stopping = true
    console.log('[demo] stopping; the data stays in place')
    server.close()
    server.closeAllConnections()
    await idp.close()
    await db.close()
    process.exit(0)
  })
}
