/**
 * The Demo IdP: a real OpenID provider (`oidc-provider`) on 127.0.0.1 and a random port, with a
 * tiny login form of its own instead of oidc-provider's development screens. The demo site runs it
 * (demo/idp-process.ts); tests import it through test/support/idp.ts and drive the form with plain
 * HTTP or a browser.
 *
 * - issuer `http://127.0.0.1:<port>` (127.0.0.1, not localhost, so an app on localhost is a
 *   different site, as with a real provider);
 * - two users, alice@example.com / alice-password and bob@example.com / bob-password;
 * - consent is given automatically once the user has signed in; the form also has a "Deny"
 *   button, which answers the client with `error=access_denied`;
 * - ID tokens carry email, email_verified, name and picture (an SVG of the initials the IdP serves
 *   at `/avatars/<sub>.svg`); RS256, key in `keys`;
 * - the `iss` authorization response parameter (RFC 9207) is always sent and advertised;
 * - refresh tokens for clients whose grant_types include `refresh_token`, when the sign-in asks for
 *   `offline_access` with `prompt=consent`; each refresh rotates the refresh token;
 * - clients are given by the caller: confidential (`client_secret`), public
 *   (`token_endpoint_auth_method: 'none'`, PKCE required), `response_mode=form_post` allowed.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, type JWK } from 'jose'
import Provider from 'oidc-provider'
import { avatarSvg } from './avatar.js'
import { demoUsers, type DemoUser } from './users.js'

export { demoUsers, type DemoUser }

export interface IdpClient {
  client_id: string
  /** Omit (with `token_endpoint_auth_method: 'none'`) for a public client. */
  client_secret?: string
  redirect_uris: string[]
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'none'
  [metadata: string]: unknown
}

export interface IdpOptions {
  /** Default 0: a free port. */
  port?: number
  clients?: IdpClient[]
  users?: DemoUser[]
  /** Seconds an ID token lives. Default 3600. */
  idTokenTtl?: number
  /** The private RS256 signing key (JWK with `kid`); default a fresh one. */
  signingKey?: JWK
  /**
   * A tenant id (a GUID) to behave as a Microsoft Entra ID tenant: the issuer becomes
   * `<origin>/<tenant>/v2.0`, ID tokens carry `tid`, and the multi-tenant aliases answer discovery
   * too: `/common/v2.0` and `/organizations/v2.0` with the issuer `<origin>/{tenantid}/v2.0`,
   * `/consumers/v2.0` with this tenant's own.
   */
  tenant?: string
}

export interface Idp {
  /** `http://127.0.0.1:<port>`, or `http://127.0.0.1:<port>/<tenant>/v2.0` with `tenant` */
  issuer: string
  /** Same as issuer: the base URL of every endpoint. */
  url: string
  /** `http://127.0.0.1:<port>` */
  origin: string
  port: number
  users: DemoUser[]
  /** The signing key pair as JWKs (tests re-sign tokens with it). */
  keys: { private: JWK; public: JWK }
  /** The oidc-provider instance: tests count its events (`grant.success`) and revoke its tokens. */
  oidc: Provider
  close(): Promise<void>
}

/** A fresh RS256 key pair as JWKs, with a kid. */
export async function makeSigningKey(kid = `demo-${randomBytes(4).toString('hex')}`): Promise<{ private: JWK; public: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  const common = { kid, alg: 'RS256', use: 'sig' }
  return { private: { ...(await exportJWK(privateKey)), ...common }, public: { ...(await exportJWK(publicKey)), ...common } }
}

export async function startIdp(options: IdpOptions = {}): Promise<Idp> {
  const users = options.users ?? demoUsers
  const keys = options.signingKey ? publicOf(options.signingKey) : await makeSigningKey()

  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.statusCode = 503
    res.end()
  }
  const server = createServer((req, res) => handle(req, res))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`
  const mount = options.tenant ? `/${options.tenant}/v2.0` : ''
  const issuer = origin + mount

  const provider = new Provider(issuer, {
    clients: (options.clients ?? []).map((c) => ({
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: c.client_secret ? 'client_secret_basic' : 'none',
      ...c,
    })),
    jwks: { keys: [keys.private] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: options.tenant ? ['sub', 'tid'] : ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    // Scope claims go into the ID token too, not only to userinfo.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    // Rotation makes a refresh token single-use, as at the providers that revoke a grant on reuse.
    rotateRefreshToken: true,
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    ttl: {
      IdToken: options.idTokenTtl ?? 3600,
      AccessToken: 3600,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    findAccount: async (_ctx: unknown, sub: string) => {
      const user = users.find((u) => u.id === sub)
      if (!user) return undefined
      return {
        accountId: user.id,
        claims: async () => ({ sub: user.id, email: user.email, email_verified: true, name: user.name, picture: new URL(user.picture, origin).href, ...(options.tenant && { tid: options.tenant }) }),
      }
    },
    renderError: async (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'text/plain; charset=utf-8'
      ctx.body = `Demo IdP error: ${out.error}${out.error_description ? `: ${out.error_description}` : ''}`
    },
  })
  // oidc-provider reports server errors as events; keep them visible in test output.
  provider.on('server_error', (_ctx: unknown, error: Error) => console.error('[demo idp] server_error', error))
  const oidc = provider.callback()

  handle = (req, res) => {
    const avatar = /^\/avatars\/([^/?]+)\.svg$/.exec(req.url ?? '')
    if (avatar) return sendAvatar(res, users.find((u) => u.id === avatar[1]))
    const match = /^\/interaction\/([^/?]+)(?:\/(login|deny))?(?:\?.*)?$/.exec(req.url ?? '')
    if (!match && options.tenant) return tenantRoute(req, res)
    if (!match) return oidc(req, res)
    interaction(provider, users, req, res, match[2] as 'login' | 'deny' | undefined).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
      res.end(`Demo IdP: ${(error as Error).message}`)
    })
  }

  /** Entra ID's layout: the tenant's own endpoints under its mount, and the aliases' discovery beside them. */
  function tenantRoute(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/'
    const alias = /^\/(common|organizations|consumers)\/v2\.0\/\.well-known\/openid-configuration$/.exec(url)?.[1]
    if (alias) {
      fetch(`${issuer}/.well-known/openid-configuration`)
        .then((r) => r.json() as Promise<Record<string, unknown>>)
        .then((doc) => {
          const named = alias === 'consumers' ? issuer : `${origin}/{tenantid}/v2.0`
          res.writeHead(200, { 'content-type': 'application/json' })
          // Entra's documents do not promise an `iss` in authorization responses (RFC 9207).
          const { authorization_response_iss_parameter_supported: _promised, ...rest } = doc
          res.end(JSON.stringify({ ...rest, issuer: named }))
        })
        .catch((error: unknown) => {
          res.writeHead(502)
          res.end(String(error))
        })
      return
    }
    // Entra ID serves its keys beside the v2.0 path, for the aliases and the tenant alike.
    if (/^\/[^/]+\/discovery\/v2\.0\/keys$/.test(url)) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ keys: [keys.public] }))
      return
    }
    if (!url.startsWith(`${mount}/`) && url !== mount) {
      res.writeHead(404)
      res.end()
      return
    }
    // Mounted as express would: oidc-provider reads its mount path from originalUrl.
    ;(req as IncomingMessage & { originalUrl?: string }).originalUrl = url
    req.url = url.slice(mount.length) || '/'
    oidc(req, res)
  }

  return {
    issuer,
    url: issuer,
    origin,
    port,
    users,
    keys,
    oidc: provider,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

async function interaction(provider: Provider, users: DemoUser[], req: IncomingMessage, res: ServerResponse, action: 'login' | 'deny' | undefined): Promise<void> {
  const details = await provider.interactionDetails(req, res)
  if (action === 'deny' && req.method === 'POST') {
    return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user denied the request' }, { mergeWithLastSubmission: false })
  }
  if (action === 'login' && req.method === 'POST') {
    const form = new URLSearchParams(await readBody(req))
    const user = users.find((u) => u.email === form.get('email')?.trim().toLowerCase() && u.password === form.get('password'))
    if (!user) return page(res, loginPage(details.uid, details.params.client_id, 'Wrong email or password.', form.get('email') ?? ''), 401)
    return finish(provider, req, res, details, user.id)
  }
  if (req.method !== 'GET') return page(res, 'Method not allowed', 405)
  // Already signed in at the IdP: consent is automatic.
  if (details.prompt.name === 'consent' && details.session?.accountId) return finish(provider, req, res, details, details.session.accountId)
  return page(res, loginPage(details.uid, details.params.client_id, '', ''))
}

/** Signs the user in and consents to everything asked, in one interaction result. */
async function finish(provider: Provider, req: IncomingMessage, res: ServerResponse, details: Awaited<ReturnType<Provider['interactionDetails']>>, accountId: string): Promise<void> {
  const grant = new provider.Grant({ accountId, clientId: details.params.client_id })
  grant.addOIDCScope(String(details.params.scope ?? 'openid'))
  const claims = typeof details.params.claims === 'string' ? (JSON.parse(details.params.claims) as Record<string, Record<string, unknown> | undefined>) : {}
  const names = [...Object.keys(claims.id_token ?? {}), ...Object.keys(claims.userinfo ?? {})]
  if (names.length) grant.addOIDCClaims(names)
  const grantId = await grant.save()
  await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false })
}

/** The IdP's icon, inline: without one the browser asks for /favicon.ico, which the IdP does not serve. */
const icon = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#5b3cc4"/><text x="16" y="22.5" font-family="system-ui,sans-serif" font-size="18" font-weight="700" fill="#fff" text-anchor="middle">D</text></svg>`,
)}`

function loginPage(uid: string, clientId: string, error: string, email: string): string {
  const e = escapeHtml
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Demo IdP: sign in</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="${icon}">
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#2b1d63;color:#1d1b2e}
main{background:#fff;border-radius:14px;padding:2rem 2.25rem;width:min(22rem,90vw);box-shadow:0 20px 50px #0005}
h1{margin:0 0 .25rem;font-size:1.35rem;color:#5b3cc4}p{margin:.25rem 0 1rem}
label{display:grid;gap:.3rem;margin:.8rem 0;font-size:.9rem}
input{font:inherit;padding:.55rem .7rem;border:1px solid #c9c4dc;border-radius:8px}
.row{display:flex;gap:.5rem;margin-top:1.2rem}.row form{display:contents}
button{font:inherit;padding:.55rem 1.1rem;border-radius:8px;border:1px solid #c9c4dc;background:#fff;cursor:pointer}
button[type=submit].primary{background:#5b3cc4;border-color:#5b3cc4;color:#fff;flex:1}
.error{color:#b00020}small{color:#6b6785}
</style>
</head><body><main>
<h1>Demo IdP</h1>
<p>Sign in to continue to <strong>${e(clientId)}</strong>.</p>
${error ? `<p class="error" role="alert">${e(error)}</p>` : ''}
<form id="login" method="post" action="/interaction/${e(uid)}/login">
  <label>Email <input name="email" type="email" autocomplete="username" value="${e(email)}" required autofocus></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
</form>
<div class="row">
  <button type="submit" class="primary" form="login">Sign in</button>
  <form method="post" action="/interaction/${e(uid)}/deny"><button type="submit">Deny</button></form>
</div>
<p><small>Demo users: alice@example.com / alice-password, bob@example.com / bob-password</small></p>
</main></body></html>`
}

function sendAvatar(res: ServerResponse, user: DemoUser | undefined): void {
  res.writeHead(user ? 200 : 404, { 'content-type': user ? 'image/svg+xml' : 'text/plain', 'cache-control': 'public, max-age=3600' })
  res.end(user ? avatarSvg(user) : 'No such user')
}

function page(res: ServerResponse, html: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  res.end(html)
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > 16 * 1024) reject(new Error('form too large'))
      else chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function publicOf(privateJwk: JWK): { private: JWK; public: JWK } {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = privateJwk
  return { private: privateJwk, public: pub }
}
