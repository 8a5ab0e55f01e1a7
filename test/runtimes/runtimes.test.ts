/**
 * Every runtime, tested: the same scenario (scenario.ts) against the same bundle (app.ts, which
 * imports latchkey/server from source), served by Node, Bun, Deno and Cloudflare's workerd, with
 * JWT sessions and with database sessions on the memory adapter; and, where PGlite loads, with
 * database sessions on the SQL adapter over PGlite.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Jar } from '../support/jar.js'
import { bundle, serve, type RuntimeName, type Served } from './runtimes.js'
import { runScenario, type Mail } from './scenario.js'

const runtimes: RuntimeName[] = ['node', 'bun', 'deno', 'workerd']
/**
 * Where the PGlite variant runs: Node, Bun and Deno, which import PGlite from node_modules (through
 * pglite-database.js, once per process, on the first /pglite request) and let it read its WASM and data file
 * beside its module. Not workerd: tried with both WASM files as wasm modules and the data file as a
 * data module (passed as `pgliteWasmModule`, `initdbWasmModule` and `fsBundle`), PGlite's emscripten
 * runtime still compiles a small WebAssembly module at run time (`addFunction`), which workerd
 * refuses ("Wasm code generation disallowed by embedder"); and under nodejs_compat it takes workerd
 * for Node and calls `createRequire(import.meta.url)`, which workerd leaves undefined. So workerd's
 * host passes no `openPGlite`, and its /pglite answers 501 (asserted below).
 */
const pgliteRuntimes: RuntimeName[] = ['node', 'bun', 'deno']
const mails: Mail[] = []
let sink: Server
let built: Awaited<ReturnType<typeof bundle>>
const served = new Map<RuntimeName, Promise<Served>>()
let honoWorker: Promise<Served> | undefined

beforeAll(async () => {
  // The mail sink the app's fetch-based sendVerificationRequest posts to.
  sink = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk))
    req.on('end', () => {
      mails.push(JSON.parse(body) as Mail)
      res.writeHead(202).end()
    })
  })
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve))
  built = await bundle()
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/mail`
  for (const runtime of runtimes) served.set(runtime, serve(runtime, built.dir, sinkUrl))
  // The Hono guide's wrangler.toml: nodejs_compat, and AUTH_SECRET as a secret (process.env).
  honoWorker = serve('workerd', built.dir, sinkUrl, { main: 'hono-worker.js', bindings: { AUTH_SECRET: 'a-secret-the-test-sets-of-32-characters' }, compatibilityFlags: ['nodejs_compat'] })
  // Every start is awaited here, so none is left running if one fails.
  await Promise.allSettled([...served.values(), honoWorker])
}, 60_000)

afterAll(async () => {
  for (const server of [...served.values(), honoWorker]) await server?.then((s) => s.stop(), () => {})
  await new Promise((resolve) => sink?.close(resolve))
  await built?.remove()
})

describe.each(runtimes)('%s', (runtime) => {
  test('serves the bundle, and is that runtime', async () => {
    const { origin } = await served.get(runtime)!
    const answer = (await (await fetch(`${origin}/runtime`)).json()) as { name: string }
    expect(answer.name).toBe(runtime)
  })

  const variants: [name: string, base: '/jwt' | '/db' | '/pglite'][] = [
    ['JWT sessions', '/jwt'],
    ['database sessions on the memory adapter', '/db'],
  ]
  if (pgliteRuntimes.includes(runtime)) variants.push(['database sessions on the SQL adapter over PGlite', '/pglite'])
  describe.each(variants)('%s', (_name, base) => {
    test('providers, CSRF, credentials sign-in, the in-step session read, sign-out, an email link', async () => {
      const server = await served.get(runtime)!
      const origin = server.origin
      const r = await runScenario(origin, base, mails).catch((error: Error) => {
        throw new Error(`${error.message}\n${runtime} said:\n${server.stderr()}`)
      })

      expect(Object.keys(r.providers).sort()).toEqual(['credentials', 'email'])
      expect(r.providers.email).toMatchObject({ type: 'email', signinUrl: `${origin}${base}/signin/email`, callbackUrl: `${origin}${base}/callback/email` })
      expect(r.csrf.token).toMatch(/^[\w-]{32,}$/)
      expect(r.csrf.issued).toBe(true)

      // A forged CSRF token and a wrong password are refused, and sign nobody in.
      expect(r.refused).toMatchObject({ status: 403, body: { error: 'MissingCSRF' }, signedIn: false })
      expect(r.wrongPassword).toMatchObject({ status: 401, body: { error: 'CredentialsSignin' }, signedIn: false })

      expect(r.signIn.status).toBe(200)
      expect(r.signIn.body.url).toBe(`${origin}/home`)
      // A JWT session is an encrypted token (five dot-separated parts); a database session an opaque id.
      expect(r.signIn.token.split('.').length).toBe(base === '/jwt' ? 5 : 1)
      const signedInAt = r.signIn.timing!.expires - 3600_000
      expect(r.signIn.timing!.due).toBe(signedInAt + 600_000)

      expect(r.first.session?.user.email).toBe('ada@example.com')
      expect(Date.parse(r.first.session!.expires)).toBe(r.signIn.timing!.expires)
      expect(r.first).toMatchObject({ setCookie: false, timing: r.signIn.timing })
      // 300 s later: not due, so nothing is extended or set.
      expect(r.notDue).toMatchObject({ setCookie: false, timing: r.signIn.timing })
      expect(r.notDue.session?.expires).toBe(r.first.session!.expires)
      // 700 s after sign-in: due, so extended to then + maxAge, with a new cookie and its timing.
      expect(r.due.setCookie).toBe(true)
      expect(r.due.timing).toEqual({ expires: signedInAt + 700_000 + 3600_000, due: signedInAt + 700_000 + 600_000 })
      expect(Date.parse(r.due.session!.expires)).toBe(r.due.timing!.expires)
      expect(r.again).toMatchObject({ setCookie: false, timing: r.due.timing, session: { expires: r.due.session!.expires } })

      expect(r.signOut).toMatchObject({ status: 200, timing: null, cookieLeft: false, after: { session: null } })

      // The email link: sent by fetch to the sink, followed once, and then spent.
      expect(r.emailAsk.status).toBe(200)
      expect(r.emailAsk.body.url).toBe(`${origin}${base}/verify-request?provider=email&type=email`)
      expect(r.emailAsk.mails).toHaveLength(1)
      expect(r.emailAsk.mails[0]!.to).toBe('grace@example.com')
      expect(r.emailAsk.mails[0]!.url.startsWith(`${origin}${base}/callback/email?`)).toBe(true)
      expect(r.emailLink).toMatchObject({ status: 302, location: `${origin}/home`, after: { session: { user: { email: 'grace@example.com' } } } })
      expect(r.reusedLink.status).toBe(302)
      expect(r.reusedLink.location).toMatch(/error=Verification/)
    })
  })
})

test('the PGlite variant runs in Node, Bun and Deno; workerd does not load PGlite, and says so', async () => {
  expect(pgliteRuntimes).toEqual(['node', 'bun', 'deno'])
  expect(runtimes.filter((runtime) => !pgliteRuntimes.includes(runtime))).toEqual(['workerd'])
  const { origin } = await served.get('workerd')!
  const answer = await fetch(`${origin}/pglite/session`)
  expect(answer.status).toBe(501)
  expect(await answer.json()).toEqual({ error: 'PGlite is not loaded in this runtime' })
})

test("the Hono guide's Worker (examples/hono/worker.ts) under workerd: notes behind the session", async () => {
  const server = await honoWorker!
  const ada = new Jar((request) => fetch(request), server.origin)
  expect((await ada.get('/api/notes')).status).toBe(401)
  const signIn = await ada.postForm('/auth/callback/credentials', { csrfToken: await ada.csrf(), username: 'ada', password: 'demo' })
  expect(signIn.status).toBe(302)
  expect((await ada.postJson('/api/notes', { text: 'buy milk' })).status).toBe(201)
  expect(await (await ada.get('/api/notes')).json()).toEqual(['buy milk'])
  expect((await ada.postForm('/auth/signout', { csrfToken: await ada.csrf() })).status).toBe(302)
  expect((await ada.get('/api/notes')).status).toBe(401)
})
