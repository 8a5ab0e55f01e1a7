/**
 * Related origins: `relatedOrigins` on the passkey provider. The handler serves
 * `/.well-known/webauthn` (answered at the origin's root when the app routes that path to it: a
 * Web handler, and Express's `app.get`), and a ceremony made on a listed origin verifies against
 * the one RP ID while any other origin is refused.
 *
 * In Chromium, two ports of localhost are two origins that share the RP ID `localhost`, so the page
 * on the second origin signs for the RP ID directly (the browser needs no well-known fetch for a
 * host that is the RP ID; a real related origin is another domain over https, out of a test's reach).
 * What is tested is the server's part: the response's signed origin is the second one.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { toNodeHandler } from '../../src/node/index.js'
import Passkey from '../../src/providers/passkey.js'
import { Latchkey } from '../../src/server/latchkey.js'
import type { Handler } from '../../src/server/index.js'
import { passkeyApp, secret, serve, type PasskeyApp, type RunningApp } from './support/app.js'
import { openWithAuthenticator } from './support/browser.js'
import { browserAnd } from '../support/browser-and.js'

type Outcome = { ok: true; value: any } | { ok: false; name: string; code?: string; reason?: string; message: string }

let app: PasskeyApp
/** The RP's own origin, and the related one the ceremonies run on. */
let main: RunningApp
let related: RunningApp
const target: { handler: Handler } = { handler: () => Promise.reject(new Error('not set')) }
const servers: Server[] = []

const env = browserAnd()
beforeAll(async () => {
  ;[main, related] = await Promise.all([serve(target), serve(target)])
  app = passkeyApp({ providers: [Passkey({ relyingParty: { id: 'localhost', origin: main.origin }, relatedOrigins: [related.origin, 'https://example.co.uk'] })] })
  target.handler = app.handler
})

afterAll(async () => {
  await Promise.all([main?.close(), related?.close(), ...servers.map((s) => new Promise((r) => s.close(r)))])
})

const run = (page: import('playwright-core').Page, script: string): Promise<Outcome> => page.evaluate((s) => (window as any).outcome(() => (0, eval)(s)), script) as Promise<Outcome>

describe('/.well-known/webauthn', () => {
  test('the Web handler answers it at the root, with the listed origins, as JSON', async () => {
    const res = await app.handler(new Request(main.origin + '/.well-known/webauthn'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await res.json()).toEqual({ origins: [related.origin, 'https://example.co.uk'] })
    // Only GET: other paths under .well-known, and a POST, are not routes.
    expect((await app.handler(new Request(main.origin + '/.well-known/other'))).status).toBe(404)
    expect((await app.handler(new Request(main.origin + '/.well-known/webauthn', { method: 'POST' }))).status).toBe(404)
  })

  test("under Express, app.get('/.well-known/webauthn', toNodeHandler(auth)) answers it beside app.use('/auth', ...)", async () => {
    const server = express()
    const handler = toNodeHandler(app.handler)
    server.get('/.well-known/webauthn', handler)
    server.use('/auth', handler)
    const listening = server.listen(0, '127.0.0.1')
    servers.push(listening)
    await new Promise<void>((r) => listening.once('listening', r))
    const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
    const res = await fetch(base + '/.well-known/webauthn')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ origins: [related.origin, 'https://example.co.uk'] })
    expect((await fetch(base + '/auth/csrf')).status).toBe(200)
  })

  test('404 where no provider lists related origins', async () => {
    const plain = app.variant({ providers: [Passkey()] })
    const res = await plain(new Request(main.origin + '/.well-known/webauthn'))
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ error: 'UnknownAction' })
  })

  test('a related origin that is not an origin stops the instance at start-up', () => {
    for (const bad of ['https://example.com/', 'example.com', 'http://example.com', 'https://example.com/path']) {
      expect(() => Latchkey({ secret, providers: [Passkey({ relatedOrigins: [bad] })] }), bad).toThrow(/relatedOrigins/)
    }
  })
})

describe('ceremonies on a related origin', () => {
  test('registration and sign-in made on a listed origin verify against the one RP ID; unlisted, the same sign-in is refused', async () => {
    const tab = await openWithAuthenticator(env.browser, related.origin + '/')
    const email = `related-${Date.now()}@example.com`
    const registered = await run(tab.page, `window.passkey.register({ email: ${JSON.stringify(email)} })`)
    expect(registered, JSON.stringify(registered)).toMatchObject({ ok: true })
    await tab.page.evaluate(() => (window as any).signOut())
    expect((await run(tab.page, 'window.passkey.signIn()')).ok).toBe(true)
    await tab.page.evaluate(() => (window as any).signOut())

    // The same app, its related list without this origin: the signed origin is refused.
    target.handler = app.variant({ providers: [Passkey({ relyingParty: { id: 'localhost', origin: main.origin }, relatedOrigins: ['https://example.co.uk'] })] })
    try {
      const refused = await run(tab.page, 'window.passkey.signIn()')
      expect(refused).toMatchObject({ ok: false, reason: 'verification' })
      expect(app.logs.some((l) => l.includes(related.origin))).toBe(true)
      expect(await tab.page.evaluate(() => (window as any).session())).toBeNull()
    } finally {
      target.handler = app.handler
    }
  })
})
