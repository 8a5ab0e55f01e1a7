/**
 * Passkeys end to end in Chromium with a virtual authenticator, through the passkey client
 * (src/client/passkey) bundled into a test page, against latchkey on http://localhost:PORT.
 */
import { describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import type { PasskeyClient } from '../../src/client/passkey/index.js'
import { browserAndPasskeyApp } from '../webauthn/support/app.js'
import { openWithAuthenticator, optionsAnswered, type AuthenticatorPage } from '../webauthn/support/browser.js'

type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; name: string; code?: string; reason?: string; message: string }

declare global {
  interface Window {
    passkey: PasskeyClient
    outcome<T>(run: () => Promise<T>): Promise<Outcome<T>>
    pending: Record<string, Promise<Outcome>>
    session(): Promise<{ user: { email: string } } | null>
    signOut(): Promise<void>
  }
}

const env = browserAndPasskeyApp()

const email = (name: string) => `${name}-${Date.now()}@example.com`
const sessionEmail = (page: Page) => page.evaluate(async () => (await window.session())?.user.email ?? null)
const signOut = (page: Page) => page.evaluate(() => window.signOut())
const run = <T>(page: Page, script: string): Promise<Outcome<T>> => page.evaluate((s) => window.outcome(() => (0, eval)(s)), script) as Promise<Outcome<T>>

async function open(host = 'localhost'): Promise<AuthenticatorPage> {
  return openWithAuthenticator(env.browser, env.running.origin.replace('localhost', host) + '/')
}

describe('passkeys in the browser', () => {
  test('a new user registers with a passkey, signs out, and signs in again: discoverable, and with an email', async () => {
    const { page } = await open()
    const ada = email('ada')
    const registered = await run<{ url: string }>(page, `window.passkey.register({ email: ${JSON.stringify(ada)} })`)
    expect(registered).toEqual({ ok: true, value: { url: env.running.origin + '/' } })
    expect(await sessionEmail(page)).toBe(ada)

    await signOut(page)
    expect(await sessionEmail(page)).toBeNull()
    expect((await run(page, 'window.passkey.signIn()')).ok).toBe(true)
    expect(await sessionEmail(page)).toBe(ada)

    await signOut(page)
    expect((await run(page, `window.passkey.signIn({ email: ${JSON.stringify(ada.toUpperCase())} })`)).ok).toBe(true)
    expect(await sessionEmail(page)).toBe(ada)
    await page.context().close()
  })

  test('conditional UI signs in from the autofill', async () => {
    const { page } = await open()
    const grace = email('grace')
    expect((await run(page, `window.passkey.register({ email: ${JSON.stringify(grace)} })`)).ok).toBe(true)
    await signOut(page)
    await page.evaluate(() => {
      window.pending.autofill = window.outcome(() => window.passkey.signIn({ conditional: true }))
    })
    await page.focus('#username')
    const result = await page.evaluate(() => window.pending.autofill)
    expect(result.ok, JSON.stringify(result)).toBe(true)
    expect(await sessionEmail(page)).toBe(grace)
    await page.context().close()
  })

  test('a second passkey is added to the account and one removed; the last one stays', async () => {
    const tab = await open()
    const { page } = tab
    const alan = email('alan')
    expect((await run(page, `window.passkey.register({ email: ${JSON.stringify(alan)} })`)).ok).toBe(true)
    const [first] = ((await run<{ id: string }[]>(page, 'window.passkey.list()')) as { value: { id: string }[] }).value

    // The same device already holds a passkey for this account: the browser says so.
    const again = await run(page, 'window.passkey.register()')
    expect(again).toMatchObject({ ok: false, name: 'PasskeyError', code: 'PasskeyAlreadyRegistered', reason: 'already-registered' })

    await tab.swapAuthenticator()
    expect((await run(page, 'window.passkey.register()')).ok).toBe(true)
    const both = (await run<{ id: string }[]>(page, 'window.passkey.list()')) as { value: { id: string }[] }
    expect(both.value).toHaveLength(2)
    const second = both.value.find((p) => p.id !== first.id)!

    const removed = await run<{ id: string }[]>(page, `window.passkey.remove(${JSON.stringify(first.id)})`)
    expect(removed).toEqual({ ok: true, value: [expect.objectContaining({ id: second.id })] })
    const last = await run(page, `window.passkey.remove(${JSON.stringify(second.id)})`)
    expect(last).toMatchObject({ ok: false, code: 'WebAuthnVerificationError', reason: 'last-credential' })

    // The remaining passkey (on the current device) still signs in.
    await signOut(page)
    expect((await run(page, 'window.passkey.signIn()')).ok).toBe(true)
    expect(await sessionEmail(page)).toBe(alan)
    await page.context().close()
  })

  test('refused at verify: registration for an email that belongs to someone else while signed out; the device drops the new passkey', async () => {
    const { page } = await open()
    const owner = email('owner')
    expect((await run(page, `window.passkey.register({ email: ${JSON.stringify(owner)} })`)).ok).toBe(true)
    await signOut(page)
    const other = await open()
    const res = await run(other.page, `window.passkey.register({ email: ${JSON.stringify(owner)} })`)
    // The options did not tell: the authenticator made a passkey, the server refused it as one that did not verify.
    expect(res).toMatchObject({ ok: false, code: 'WebAuthnVerificationError', reason: 'verification' })
    expect((res as { message: string }).message).toMatch(/could not be registered\. If this email address already belongs to an account, sign in to it first/)
    expect(await sessionEmail(other.page)).toBeNull()
    // Stored nowhere, so the client asks the browser to forget it (Signal API); Chromium's virtual authenticator does.
    expect((await other.cdp.send('WebAuthn.getCredentials', { authenticatorId: other.authenticatorId })).credentials).toEqual([])
    const user = (await env.app.adapter.getUserByEmail(owner))!
    expect(await env.app.adapter.listAuthenticatorsByUserId(user.id)).toHaveLength(1)
    await page.context().close()
    await other.page.context().close()
  })

  test('a removed passkey reads as no matching credential', async () => {
    const { page } = await open()
    const lin = email('lin')
    expect((await run(page, `window.passkey.register({ email: ${JSON.stringify(lin)} })`)).ok).toBe(true)
    const user = (await env.app.adapter.getUserByEmail(lin))!
    const [stored] = await env.app.adapter.listAuthenticatorsByUserId(user.id)
    await env.app.adapter.deleteAuthenticator(stored.credentialID)
    await signOut(page)
    expect(await run(page, 'window.passkey.signIn()')).toMatchObject({ ok: false, code: 'WebAuthnVerificationError', reason: 'unknown-credential' })
    await page.context().close()
  })

  test('refused: a counter regression (a cloned authenticator)', async () => {
    const { page } = await open()
    const eve = email('eve')
    expect((await run(page, `window.passkey.register({ email: ${JSON.stringify(eve)} })`)).ok).toBe(true)
    const [stored] = await env.app.adapter.listAuthenticatorsByUserId((await env.app.adapter.getUserByEmail(eve))!.id)
    await env.app.adapter.updateAuthenticatorCounter(stored.credentialID, stored.counter + 50)
    await signOut(page)
    expect(await run(page, 'window.passkey.signIn()')).toMatchObject({ ok: false, code: 'WebAuthnVerificationError', reason: 'counter' })
    expect(await sessionEmail(page)).toBeNull()
    await page.context().close()
  })

  test('a ceremony in progress is aborted when another starts', async () => {
    const { page, cdp, authenticatorId } = await open()
    // Without simulated user presence every ceremony waits at the authenticator, as for a person
    // who has not touched it yet (the virtual authenticator otherwise answers at once).
    await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: false })
    const asked = optionsAnswered(page, 'authenticate')
    await page.evaluate(() => {
      window.pending.autofill = window.outcome(() => window.passkey.signIn({ conditional: true }))
    })
    await asked
    // A button press starts another ceremony: the waiting autofill gives way.
    await page.evaluate(() => {
      window.pending.pressed = window.outcome(() => window.passkey.signIn())
    })
    expect(await page.evaluate(() => window.pending.autofill)).toMatchObject({ ok: false, code: 'PasskeyCancelled', reason: 'cancelled' })
    await page.evaluate(() => window.passkey.cancel())
    expect(await page.evaluate(() => window.pending.pressed)).toMatchObject({ ok: false, code: 'PasskeyCancelled', reason: 'cancelled' })
    await page.context().close()
  })

  test('the browser refuses a page whose host is not a valid RP ID (127.0.0.1 here): code security', async () => {
    const { page } = await open('127.0.0.1')
    const res = await run(page, `window.passkey.register({ email: ${JSON.stringify(email('ip'))} })`)
    expect(res).toMatchObject({ ok: false, code: 'PasskeySecurityError', reason: 'security' })
    await page.context().close()
  })
})
