/**
 * `client.getPlugins()`: the server's plugin ids, asked once however often it is called; against
 * a server that does not list them (Auth.js, which answers 400, an older latchkey's 404, one that
 * cannot be reached) it answers undefined, asked once too, and never throws.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { createAuthClient } from '../../src/client/create-auth-client.js'
import { testServer } from '../support/server.js'
import { pageAt } from './support/browser-fakes.js'

const page = 'http://localhost:3000'
let asked: string[]

/** `fetch` answered by `handler`, each request's path kept. */
function served(handler: (request: Request) => Promise<Response> | Response) {
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const request = new Request(new URL(input, page), init)
    asked.push(new URL(request.url).pathname)
    return handler(request)
  })
}

beforeEach(() => {
  asked = []
  pageAt(page)
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

const plugins = (client: { getPlugins(): Promise<readonly string[] | undefined> }) => Promise.all([client.getPlugins(), client.getPlugins(), client.getPlugins()])
const askedFor = () => asked.filter((p) => p === '/auth/plugins').length

it("answers latchkey's list, asked once", async () => {
  served(testServer({ mfa: { issuer: 'Test' } }).handler)
  const client = createAuthClient({ serviceWorker: false })
  const [first, ...rest] = await plugins(client)
  expect(first).toEqual(expect.arrayContaining(['mfa', 'credentials', 'sessions']))
  expect(rest).toEqual([first, first])
  expect(await client.getPlugins()).toBe(first)
  expect(askedFor()).toBe(1)
})

it('an Auth.js server (400 for an action it does not know): undefined, asked once, nothing thrown', async () => {
  const { Auth } = await import('@auth/core')
  const { default: Credentials } = await import('@auth/core/providers/credentials')
  const config = { secret: 'authjs-secret-0123456789abcdefghij', trustHost: true, basePath: '/auth', logger: { error: () => {}, warn: () => {}, debug: () => {} }, providers: [Credentials({ authorize: async () => null })] }
  served((request) => Auth(request, config))
  const client = createAuthClient({ serviceWorker: false })
  expect(await plugins(client)).toEqual([undefined, undefined, undefined])
  expect(await client.getPlugins()).toBeUndefined()
  expect(askedFor()).toBe(1)
})

it("an older latchkey (404 UnknownAction), a 500, a server that cannot be reached: undefined, never thrown", async () => {
  for (const answer of [() => Response.json({ error: 'UnknownAction', message: 'Unknown action' }, { status: 404 }), () => new Response('oops', { status: 500 }), () => Promise.reject(new TypeError('Failed to fetch'))]) {
    asked = []
    served(answer)
    const client = createAuthClient({ serviceWorker: false })
    expect(await plugins(client)).toEqual([undefined, undefined, undefined])
    expect(askedFor()).toBe(1)
  }
})
