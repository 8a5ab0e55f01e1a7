/**
 * HTTP-level test harness for OAuth sign-ins: a browser-like client with a cookie jar, the app
 * (`Latchkey` under node:http), an adapter that counts what it creates, and the steps of a
 * sign-in so tests can stop at any point and tamper with what travels.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { AdapterAccount, AuthConfig } from '../../src/core/types.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { toNodeHandler } from '../../src/node/index.js'

interface StoredCookie {
  value: string
  path: string
}

/** A browser's cookie handling, enough for these flows: host-only cookies, Path, expiry on Max-Age/Expires. */
export class Browser {
  readonly jar = new Map<string, Map<string, StoredCookie>>()

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url)
    const headers = new Headers(init.headers)
    const cookie = this.cookieHeader(target)
    if (cookie) headers.set('cookie', cookie)
    const response = await fetch(target, { ...init, headers, redirect: 'manual' })
    this.store(target, response.headers.getSetCookie())
    return response
  }

  /** Follows redirects while `keepGoing(next)` says so; returns the last response and its URL. */
  async follow(url: string, keepGoing: (next: URL) => boolean, init: RequestInit = {}): Promise<{ response: Response; url: string }> {
    let current = url
    let response = await this.request(current, init)
    for (let hops = 0; hops < 20; hops++) {
      const location = response.headers.get('location')
      if (response.status < 300 || response.status >= 400 || !location) break
      const next = new URL(location, current)
      if (!keepGoing(next)) break
      await response.arrayBuffer()
      current = next.href
      response = await this.request(current)
    }
    return { response, url: current }
  }

  cookieHeader(url: URL): string {
    const cookies = this.jar.get(url.hostname)
    if (!cookies) return ''
    return [...cookies].filter(([, c]) => url.pathname.startsWith(c.path)).map(([name, c]) => `${name}=${c.value}`).join('; ')
  }

  get(url: string, name: string): string | undefined {
    return this.jar.get(new URL(url).hostname)?.get(name)?.value
  }

  set(url: string, name: string, value: string, path = '/'): void {
    const host = new URL(url).hostname
    if (!this.jar.has(host)) this.jar.set(host, new Map())
    this.jar.get(host)!.set(name, { value, path })
  }

  /** A form post to `auth` + `path` with this browser's CSRF token, asking JSON (`{ url }`) for an answer, not a redirect. */
  async postForm(auth: string, path: string, fields: Record<string, string>): Promise<Response> {
    const { csrfToken } = (await (await this.request(`${auth}/csrf`)).json()) as { csrfToken: string }
    return this.request(`${auth}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
      body: new URLSearchParams({ csrfToken, ...fields }),
    })
  }

  delete(url: string, name: string): void {
    this.jar.get(new URL(url).hostname)?.delete(name)
  }

  /** The cookies this browser holds for a URL's host, as name → raw value. */
  cookies(url: string): Record<string, string> {
    return Object.fromEntries([...(this.jar.get(new URL(url).hostname) ?? [])].map(([k, c]) => [k, c.value]))
  }

  private store(url: URL, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim())
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq)
      const value = pair.slice(eq + 1)
      let path = '/'
      let expired = false
      for (const attribute of attributes) {
        const [key, val = ''] = attribute.split('=')
        const k = key.toLowerCase()
        if (k === 'path') path = val || '/'
        if (k === 'max-age' && Number(val) <= 0) expired = true
        if (k === 'expires' && Date.parse(val) <= Date.now()) expired = true
      }
      if (expired) this.jar.get(url.hostname)?.delete(name)
      else this.set(url.href, name, value, path)
    }
  }
}

export interface Counts {
  createUser: number
  linkAccount: number
  createSession: number
}

/** The memory adapter, counting the records it creates. */
export function countingAdapter() {
  const adapter = MemoryAdapter()
  const counts: Counts = { createUser: 0, linkAccount: 0, createSession: 0 }
  const accounts: AdapterAccount[] = []
  const wrapped = {
    ...adapter,
    createUser: async (user: Parameters<typeof adapter.createUser>[0]) => {
      const created = await adapter.createUser(user)
      counts.createUser++
      return created
    },
    linkAccount: async (account: AdapterAccount): Promise<void> => {
      await adapter.linkAccount(account)
      counts.linkAccount++
      accounts.push(account)
    },
    createSession: async (session: Parameters<typeof adapter.createSession>[0]) => {
      const created = await adapter.createSession(session)
      counts.createSession++
      return created
    },
  }
  return { adapter: wrapped, base: adapter, counts, accounts }
}

export interface App {
  /** `http://localhost:<port>` */
  url: string
  /** `<url>/auth` */
  auth: string
  use(config: AuthConfig): void
  close(): Promise<void>
}

/** A node:http server whose Latchkey configuration is set after it listens (providers need the IdP, the IdP needs this port). */
export async function startApp(): Promise<App> {
  let handler: ReturnType<typeof toNodeHandler> | undefined
  const server: Server = createServer((req, res) => {
    if (!handler) {
      res.writeHead(503).end()
      return
    }
    void handler(req, res)
  })
  // Idle keep-alive sockets stay open until the test's fetch closes them: a server that timed them
  // out could close one in the same tick as a fetch reuses it (both timers late while PGlite starts
  // and blocks the loop), and that fetch fails with ECONNRESET.
  server.keepAliveTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const url = `http://localhost:${port}`
  return {
    url,
    auth: `${url}/auth`,
    use(config) {
      handler = toNodeHandler(Latchkey(config))
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** A logger that keeps every line. */
export function recordingLogger() {
  const lines: string[] = []
  return {
    lines,
    logger: {
      error: (error: Error) => lines.push(`error ${error.name}: ${error.message}`),
      warn: (code: string) => lines.push(`warn ${code}`),
      debug: () => {},
    },
  }
}

// ---------------------------------------------------------------- the steps of a sign-in

/** POST /auth/signin/:id with a CSRF token; returns the authorization URL the app redirects to. */
export async function beginSignIn(browser: Browser, app: { auth: string }, providerId: string, query = ''): Promise<URL> {
  const csrf = await browser.request(`${app.auth}/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await browser.request(`${app.auth}/signin/${providerId}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken, callbackUrl: '/dashboard' }),
  })
  const location = response.headers.get('location')
  expect(response.status, `POST /signin/${providerId} should redirect, got: ${await response.clone().text()}`).toBe(302)
  return new URL(location!)
}

export type IdpOutcome =
  | { kind: 'redirect'; callback: URL }
  | { kind: 'form_post'; action: string; fields: Record<string, string> }

/**
 * At the IdP: opens the authorization URL, fills the login form (or presses Deny), and returns
 * what the IdP sends back to the app, without delivering it.
 */
export async function atIdp(browser: Browser, authorizationUrl: URL, login: { email: string; password: string } | 'deny'): Promise<IdpOutcome> {
  const idpHost = authorizationUrl.host
  const within = (u: URL) => u.host === idpHost
  let step = await browser.follow(authorizationUrl.href, within)
  for (let pages = 0; pages < 5; pages++) {
    const location = step.response.headers.get('location')
    if (step.response.status >= 300 && step.response.status < 400 && location) {
      return { kind: 'redirect', callback: new URL(location, step.url) }
    }
    const html = await step.response.text()
    const uid = /\/interaction\/([^/"]+)\/login/.exec(html)?.[1]
    if (uid) {
      // The IdP's login form: sign in, or press Deny.
      const action = login === 'deny' ? 'deny' : 'login'
      step = await browser.follow(`http://${idpHost}/interaction/${uid}/${action}`, within, form(login === 'deny' ? {} : login))
      continue
    }
    const action = /<form[^>]*action="([^"]+)"/i.exec(html)?.[1]
    if (!action || !/method="post"/i.test(html)) throw new Error(`Expected the IdP to answer with a redirect, its login form or a form_post page, got HTTP ${step.response.status}: ${html.slice(0, 300)}`)
    const fields: Record<string, string> = {}
    for (const m of html.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) fields[m[1]] = decodeEntities(m[2])
    const target = new URL(decodeEntities(action), step.url)
    // A self-submitting page: the IdP's own (ending the previous session on an account switch), or form_post to the app.
    if (!within(target)) return { kind: 'form_post', action: target.href, fields }
    step = await browser.follow(target.href, within, form(fields))
  }
  throw new Error('The IdP did not send the browser back after five pages')
}

function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) }
}

/** The callback URL the IdP redirected to; fails the test for a form_post answer. */
export function callbackOf(outcome: IdpOutcome): URL {
  if (outcome.kind !== 'redirect') throw new Error('Expected a redirect back to the app, got a form_post page')
  return outcome.callback
}

export interface Finished {
  /** Where the app finally sent the browser. */
  location: string
  /** The `error` of /auth/error?error=…, when it ended there. */
  error?: string
  status: number
}

/** Delivers the IdP's answer to the app and follows the app's own hops (form_post bounce, proxy forward). */
export async function deliver(browser: Browser, outcome: IdpOutcome | URL): Promise<Finished> {
  let first: { response: Response; url: string }
  const isCallback = (u: URL) => /\/auth\/callback\//.test(u.pathname)
  if (outcome instanceof URL || outcome.kind === 'redirect') {
    const url = outcome instanceof URL ? outcome : outcome.callback
    first = await browser.follow(url.href, isCallback)
  } else {
    first = await browser.follow(outcome.action, isCallback, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(outcome.fields),
    })
  }
  const { response } = first
  const location = response.headers.get('location') ?? ''
  const errorType = location.includes('/auth/error') ? (new URL(location, first.url).searchParams.get('error') ?? undefined) : undefined
  await response.arrayBuffer()
  return { location, error: errorType, status: response.status }
}

/** GET /auth/session as this browser. */
export async function sessionOf(browser: Browser, app: { auth: string }): Promise<{ user: { name?: string; email?: string; image?: string } } | null> {
  const response = await browser.request(`${app.auth}/session`)
  return (await response.json()) as { user: { name?: string; email?: string; image?: string } } | null
}

/** A whole sign-in, from the button to the app's final redirect. */
export async function signIn(browser: Browser, app: { auth: string }, providerId: string, user: { email: string; password: string }, query = ''): Promise<Finished> {
  const authorization = await beginSignIn(browser, app, providerId, query)
  return deliver(browser, await atIdp(browser, authorization, user))
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCharCode(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

export const alice = { email: 'alice@example.com', password: 'alice-password' }
export const bob = { email: 'bob@example.com', password: 'bob-password' }
