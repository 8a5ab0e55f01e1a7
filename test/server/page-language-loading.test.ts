/**
 * The server's page languages load on demand (kernel/page-catalogues.ts): English is the only
 * pages catalogue in the start-up code; the configured shipped languages load from construction
 * on, a page asked for before its language arrived waits for it, a route with no page words
 * (GET /session, /csrf, /providers, `auth.getSession`) never waits, and a language that fails to
 * load is logged and answered in English.
 */
import { describe, expect, it, vi } from 'vitest'
import { measure } from '../../bench/server-size.js'
import { Latchkey } from '../../src/server/index.js'
import { Jar } from '../support/jar.js'
import { testSecret, testServer } from '../support/server.js'

/** The catalogues the server asked for, in order. */
const loaded = vi.hoisted(() => [] as string[])

// German's chunk is missing from the deployment; Japanese's never arrives; Spanish is counted.
vi.mock('../../src/locales/de/pages.js', () => {
  throw new Error('chunk pages-de.js not found')
})
vi.mock('../../src/locales/ja/pages.js', () => new Promise(() => {}))
vi.mock('../../src/locales/es/pages.js', async (original) => {
  loaded.push('es')
  return original()
})

const langOf = (html: string) => /<html lang="([^"]*)"/.exec(html)?.[1]

describe('page languages loaded on demand', () => {
  it('answers a page asked for right after start-up in its language, once it has arrived', async () => {
    const { handler } = testServer({ languages: ['en', 'fr'] })
    const res = await new Jar(handler).get('/auth/signin', { 'accept-language': 'fr' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-language')).toBe('fr')
    expect(langOf(await res.text())).toBe('fr')
  })

  it('loads only the languages the configuration uses', async () => {
    loaded.length = 0
    const { handler } = testServer({ languages: ['en', 'fr'] })
    await new Jar(handler).get('/auth/signin', { 'accept-language': 'es' })
    expect(loaded).toEqual([])
    const all = testServer({ languages: ['en', 'es'] })
    const res = await new Jar(all.handler).get('/auth/signin', { 'accept-language': 'es' })
    expect(loaded).toEqual(['es'])
    expect(langOf(await res.text())).toBe('es')
  })

  it('answers a language whose catalogue fails to load in English, with a logged error, never a 500', async () => {
    const { handler, logs } = testServer({ languages: ['en', 'de'] })
    const res = await new Jar(handler).get('/auth/signin', { 'accept-language': 'de' })
    expect(res.status).toBe(200)
    expect(langOf(await res.text())).toBe('en')
    expect(logs.find((line) => line.startsWith('error Configuration'))).toMatch(/"de" pages' catalogue .* failed to load; its pages are answered in English/)
  })

  it('keeps GET /session, /csrf, /providers and auth.getSession from waiting for a language still loading', async () => {
    // Japanese never arrives: a route that waited for it would never answer.
    const { handler } = testServer({ languages: ['en', 'ja'] })
    const jar = new Jar(handler)
    for (const path of ['/auth/session', '/auth/csrf', '/auth/providers']) {
      const res = await jar.get(path, { 'accept-language': 'ja' })
      expect(res.status).toBe(200)
    }
    expect(await handler.getSession(new Request('http://localhost/app', { headers: { 'accept-language': 'ja' } }))).toBeNull()
  })

  it('keeps configuration errors synchronous, checked against English', () => {
    expect(() => Latchkey({ secret: testSecret, providers: [], messages: { fr: { AccessDenied: 'x', noSuchKey: 'y' } as never } })).toThrow(
      'latchkey: messages["fr"] has "noSuchKey", which is no page message',
    )
    expect(() => Latchkey({ secret: testSecret, providers: [], languages: ['xx'] })).toThrow('latchkey: languages names "xx"')
  })

  it("carries English's pages alone in a credentials-only server's start-up code (bench/server-size.ts)", async () => {
    const size = await measure(`Credentials({ authorize: async () => null })`)
    expect(size.pagesAtStartup).toEqual(['src/locales/en/pages.ts'])
  }, 60_000)
})
