/**
 * The page reaches latchkey on its own origin (a dev server's proxy forwards /auth to the API),
 * but the server's `origin` is the API's URL: its providers' URLs lead the page to the API's
 * origin, whose CORS refuses the page. The SDK says so (`OriginMismatch`, the fix: `origin` is the
 * page's URL), where a client whose basePath is the API's own URL meets `CrossOriginRefused`
 * (the fix: `trustedOrigins`). In Node: the browser's CORS refusal is fetch's TypeError, and the
 * no-cors probe of the API's root gets through (the server is up).
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { createAuthClient } from '../../src/client/create-auth-client.js'
import type { AuthClientError } from '../../src/client/errors.js'
import { pageAt } from './support/browser-fakes.js'

const page = 'http://localhost:5173'
const api = 'http://localhost:3000'
const provider = { id: 'credentials', name: 'Credentials', type: 'credentials', signinUrl: `${api}/auth/signin/credentials`, callbackUrl: `${api}/auth/callback/credentials` }

let warnings: string[]
beforeEach(() => {
  warnings = pageAt(page)
  // The proxy answers the page's own origin; the API's origin answers only what CORS lets through: a no-cors probe.
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input)
    if (url.origin === api) {
      if (init.mode === 'no-cors') return new Response(null, { status: 204 })
      throw new TypeError('Failed to fetch')
    }
    if (url.pathname.endsWith('/providers')) return Response.json({ credentials: provider })
    if (url.pathname.endsWith('/csrf')) return Response.json({ csrfToken: 'token' })
    return Response.json({ error: 'UnknownAction' }, { status: 404 })
  })
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

const signIn = (basePath: string) =>
  createAuthClient({ basePath, serviceWorker: false })
    .signIn('credentials', { username: 'ada', password: 'secret', redirect: false })
    .then(() => undefined, (e: AuthClientError) => e)

it("basePath on the page's own origin, the server's URLs on another: OriginMismatch, set `origin` to the page's URL", async () => {
  const error = await signIn('/auth')
  expect(error?.code).toBe('OriginMismatch')
  expect(error?.message).toContain(`This page reaches latchkey at ${page}/auth, on its own origin, but the server builds its URLs on ${api}`)
  expect(error?.message).toContain(`set origin (or AUTH_URL) to '${page}', the page's URL`)
  expect(error?.message).not.toContain('trustedOrigins')
  expect(warnings).toEqual([`latchkey: ${error?.message}`])
})

it("basePath on the API's origin: CrossOriginRefused, add the page's origin to trustedOrigins", async () => {
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    if (init.mode === 'no-cors') return new Response(null, { status: 204 })
    throw new TypeError('Failed to fetch')
  })
  const error = await createAuthClient({ basePath: `${api}/auth`, serviceWorker: false }).getProviders().then(() => undefined, (e: AuthClientError) => e)
  expect(error?.code).toBe('CrossOriginRefused')
  expect(error?.message).toContain(`Add '${page}' to trustedOrigins`)
})
