/**
 * Capabilities and hints: the provider's `hints` go into both ceremonies' options, a call's own
 * hints replace them in what the browser is asked, and the passkey client reads what the browser
 * can do from `getClientCapabilities()`, falling back to the older probes where it is missing.
 */
import { beforeAll, describe, expect, test } from 'vitest'
import Passkey from '../../src/providers/passkey.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { browserAndPasskeyApp, passkeyApp, secret } from './support/app.js'
import { openWithAuthenticator, type AuthenticatorPage } from './support/browser.js'
import { Ceremony } from './support/ceremony.js'

type Outcome = { ok: true; value: any } | { ok: false; name: string; code?: string; reason?: string; message: string }

let tab: AuthenticatorPage

const env = browserAndPasskeyApp(() => passkeyApp({ providers: [Passkey({ hints: ['client-device', 'hybrid'] })] }))

beforeAll(async () => {
  tab = await openWithAuthenticator(env.browser, env.running.origin + '/')
  // Records the hints each ceremony asks the browser with, then lets the browser answer.
  await tab.page.evaluate(() => {
    const asked: unknown[] = []
    Object.assign(window, { hintsAsked: asked })
    for (const method of ['create', 'get'] as const) {
      const own = navigator.credentials[method].bind(navigator.credentials) as (o?: any) => Promise<Credential | null>
      ;(navigator.credentials as any)[method] = (options?: any) => {
        asked.push(options?.publicKey?.hints)
        return own(options)
      }
    }
  })
})

const run = (script: string): Promise<Outcome> => tab.page.evaluate((s) => (window as any).outcome(() => (0, eval)(s)), script) as Promise<Outcome>
const asked = () => tab.page.evaluate(() => (window as any).hintsAsked.splice(0))

describe('hints', () => {
  test("the provider's hints are in the registration and the sign-in options", async () => {
    const c = new Ceremony(tab.page, env.app.handler, env.running.origin)
    expect((await c.options('register', { email: `h-${Date.now()}@example.com` })).body.options.hints).toEqual(['client-device', 'hybrid'])
    expect((await c.options('authenticate')).body.options.hints).toEqual(['client-device', 'hybrid'])
    const plain = new Ceremony(tab.page, env.app.variant({ providers: [Passkey()] }), env.running.origin)
    expect((await plain.options('authenticate')).body.options).not.toHaveProperty('hints')
  })

  test("the browser is asked with the provider's hints, or with the call's own instead", async () => {
    const email = `hints-${Date.now()}@example.com`
    expect((await run(`window.passkey.register({ email: ${JSON.stringify(email)} })`)).ok).toBe(true)
    await tab.page.evaluate(() => (window as any).signOut())
    expect((await run(`window.passkey.signIn({ hints: ['security-key'] })`)).ok).toBe(true)
    expect(await asked()).toEqual([['client-device', 'hybrid'], ['security-key']])
  })

  test('hints that WebAuthn does not define stop the instance at start-up', () => {
    expect(() => Latchkey({ secret, providers: [Passkey({ hints: ['phone' as 'hybrid'] })] })).toThrow(/hints/)
  })
})

describe('capabilities', () => {
  test('without getClientCapabilities the client falls back to the older probes, and conditionalCreate reads as missing (upgrade() refuses)', async () => {
    const page = (await openWithAuthenticator(env.browser, env.running.origin + '/')).page
    await page.evaluate(() => {
      ;(PublicKeyCredential as any).getClientCapabilities = undefined
      ;(PublicKeyCredential as any).isConditionalMediationAvailable = () => Promise.resolve(false)
    })
    const go = (s: string) => page.evaluate((x) => (window as any).outcome(() => (0, eval)(x)), s) as Promise<Outcome>
    expect(await go('window.passkey.capabilities()')).toEqual({ ok: true, value: { conditionalGet: false, userVerifyingPlatformAuthenticator: true } })
    expect(await go('window.passkey.autofillSupported()')).toEqual({ ok: true, value: false })
    expect(await go('window.passkey.upgrade()')).toMatchObject({ ok: false, code: 'PasskeyUnsupported' })
    // A getClientCapabilities that throws is a missing one, not an error for the app.
    await page.evaluate(() => {
      ;(PublicKeyCredential as any).getClientCapabilities = () => Promise.reject(new Error('broken'))
      ;(PublicKeyCredential as any).isConditionalMediationAvailable = () => Promise.resolve(true)
    })
    expect(await go('window.passkey.autofillSupported()')).toEqual({ ok: true, value: true })
  })
})
