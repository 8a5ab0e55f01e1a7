/**
 * Passkeys in Firefox: a new account registers a passkey, signs out, and signs in with it, through
 * latchkey's passkey client on the test page (`?passkey`), over WebDriver BiDi (puppeteer-core).
 * Firefox answers WebAuthn with its built-in software authenticator (`softToken`: the prefs
 * `security.webauth.webauthn_enable_softtoken` on and `…_usbtoken` off), which needs no prompt.
 * WebAuthn refuses an IP address as the RP ID, so the page is http://localhost:PORT.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server.js'
import { engineForTests, installedEngines, type Tab } from '../support/engines/index.js'
import { ensureBuilt } from './ensure-built.js'
import './helpers.js'

let server: AppServer

beforeAll(async () => {
  await ensureBuilt()
  server = await startAppServer()
}, 120_000)
afterAll(() => server?.close())

const ready = (tab: Tab, controlled: boolean) => tab.waitFor((c) => window.ready === true && window.client.status !== 'loading' && !!navigator.serviceWorker.controller === c, controlled)
const statusIs = (tab: Tab, status: string) => tab.waitFor((s) => window.client.status === s, status)
const sessionEmail = (tab: Tab) => tab.evaluate(() => window.client.getSession().then((s) => s?.user?.email ?? null))
/** Runs a passkey call in the page: its result, or the error's name, code and reason. */
const passkey = (tab: Tab, call: 'register' | 'signIn', email?: string) =>
  tab.evaluate(([c, e]) => {
    const run = c === 'register' ? window.client.passkey.register(e ? { email: e } : {}) : window.client.passkey.signIn(e ? { email: e } : {})
    return run.then((value) => ({ ok: true, value }), (err) => ({ ok: false, name: err?.name, code: err?.code, reason: err?.reason, message: String(err?.message ?? err) }))
  }, [call, email] as const)

describe.each(installedEngines('test/e2e/engines-passkey.test.ts', ['firefox']))('%s', { timeout: 90_000 }, (name) => {
  const { newProfile } = engineForTests(name, { virtualAuthenticator: true })

  test('a new account registers a passkey, signs out, and signs in with it (discoverable, then by email)', async () => {
    const profile = await newProfile()
    const tab = await profile.newTab(server.url + '/?passkey')
    await ready(tab, true)
    await statusIs(tab, 'unauthenticated')
    expect(await tab.evaluate(() => typeof PublicKeyCredential === 'function' && !!window.client.passkey)).toBe(true)

    const email = `${name}.passkey@example.com`
    expect(await passkey(tab, 'register', email)).toEqual({ ok: true, value: { url: server.url + '/' } })
    await statusIs(tab, 'authenticated')
    expect(await sessionEmail(tab)).toBe(email)

    await tab.evaluate(() => window.client.signOut({ redirect: false }))
    await statusIs(tab, 'unauthenticated')
    expect(await passkey(tab, 'signIn')).toMatchObject({ ok: true })
    await statusIs(tab, 'authenticated')
    expect(await sessionEmail(tab)).toBe(email)

    await tab.evaluate(() => window.client.signOut({ redirect: false }))
    await statusIs(tab, 'unauthenticated')
    expect(await passkey(tab, 'signIn', email)).toMatchObject({ ok: true })
    await statusIs(tab, 'authenticated')
    expect(await sessionEmail(tab)).toBe(email)
    expect(tab.errors).toEqual([])
  })
})
