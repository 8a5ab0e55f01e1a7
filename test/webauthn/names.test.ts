/**
 * Authenticator names: the passkey list names each passkey's authenticator from its AAGUID (the
 * shipped list, src/server/features/webauthn/aaguid-names.ts), a neutral name where the model is
 * unknown, and the name the user gave it (`rename`, stored with `updateAuthenticatorName`).
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { authenticatorName } from '../../src/server/features/webauthn/authenticator-name.js'
import { aaguidNames } from '../../src/server/features/webauthn/aaguid-names.js'
import { browserAndPasskeyApp, passkeyApp } from './support/app.js'
import { openWithAuthenticator, type AuthenticatorPage } from './support/browser.js'
import { Ceremony } from './support/ceremony.js'
import { softwareRegistration } from './support/software-authenticator.js'

type Outcome = { ok: true; value: any } | { ok: false; name: string; code?: string; reason?: string; message: string }

let tab: AuthenticatorPage

const env = browserAndPasskeyApp()

beforeAll(async () => {
  tab = await openWithAuthenticator(env.browser, env.running.origin + '/')
})

let n = 0
const freshEmail = () => `names${++n}-${Date.now()}@example.com`
const run = (script: string): Promise<Outcome> => tab.page.evaluate((s) => (window as any).outcome(() => (0, eval)(s)), script) as Promise<Outcome>
const google = 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4'

describe('the AAGUID list', () => {
  test('names the common passkey managers, and unknown or absent AAGUIDs get the neutral name', () => {
    expect(authenticatorName(google)).toBe('Google Password Manager')
    expect(authenticatorName('BADA5566-A7AA-401F-BD96-45619A55120D')).toBe('1Password')
    expect(authenticatorName('fbfc3007-154e-4ecc-8c0b-6e020557d7bd')).toBe('Apple Passwords')
    expect(authenticatorName('01020304-0506-0708-0102-030405060708')).toBe('Passkey')
    expect(authenticatorName(null)).toBe('Passkey')
    // Every entry is a lower-case AAGUID with a name; the all-zero one (no model) is not among them.
    for (const [aaguid, name] of Object.entries(aaguidNames)) {
      expect(aaguid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      expect(name.trim()).toBe(name)
      expect(name.length).toBeGreaterThan(0)
    }
    expect(aaguidNames['00000000-0000-0000-0000-000000000000']).toBeUndefined()
  })
})

describe('the passkey list', () => {
  test("a passkey from a known authenticator model is listed under its name, with its AAGUID stored; Chromium's virtual one reads as the neutral name", async () => {
    await tab.swapAuthenticator()
    const email = freshEmail()
    const c = new Ceremony(tab.page, env.app.handler, env.running.origin)
    const options = await c.options('register', { email })
    const made = softwareRegistration(options.body.options, env.running.origin, { aaguid: google })
    expect((await c.post('register', made.response)).status).toBe(200)
    const user = (await env.app.adapter.getUserByEmail(email))!
    expect((await env.app.adapter.getAuthenticator(made.id))?.aaguid).toBe(google)

    // A second, from the browser's virtual authenticator, added while signed in.
    const second = await c.run('register')
    expect(second.status).toBe(200)
    const list = (await (await c.jar.get('/auth/passkeys')).json()).passkeys as Array<Record<string, unknown>>
    expect(list.find((p) => p.id === made.id)).toMatchObject({ authenticator: 'Google Password Manager', aaguid: google, name: null })
    expect(list.find((p) => p.id === second.data.id)).toMatchObject({ authenticator: 'Passkey', name: null })
    expect(list).toHaveLength((await env.app.adapter.listAuthenticatorsByUserId(user.id)).length)
  })

  test('the passkey client renames a passkey (trimmed), clears the name with an empty one, and the list shows it', async () => {
    await tab.swapAuthenticator()
    const email = freshEmail()
    expect((await run(`window.passkey.register({ email: ${JSON.stringify(email)} })`)).ok).toBe(true)
    const [key] = await env.app.adapter.listAuthenticatorsByUserId((await env.app.adapter.getUserByEmail(email))!.id)
    const renamed = await run(`window.passkey.rename(${JSON.stringify(key!.credentialID)}, '  Work laptop  ')`)
    expect(renamed).toMatchObject({ ok: true, value: [{ id: key!.credentialID, name: 'Work laptop', authenticator: 'Passkey' }] })
    expect((await env.app.adapter.getAuthenticator(key!.credentialID))?.name).toBe('Work laptop')
    expect(await run('window.passkey.list()')).toMatchObject({ ok: true, value: [{ name: 'Work laptop' }] })
    expect(await run(`window.passkey.rename(${JSON.stringify(key!.credentialID)}, '')`)).toMatchObject({ ok: true, value: [{ name: null }] })
    expect((await env.app.adapter.getAuthenticator(key!.credentialID))?.name ?? null).toBeNull()
  })

  test("the SDK's passkey plugin, client.passkey.rename, does the same", async () => {
    await tab.page.evaluate(() => (window as any).signOut())
    await tab.swapAuthenticator()
    const email = freshEmail()
    expect((await run(`window.passkey.register({ email: ${JSON.stringify(email)} })`)).ok).toBe(true)
    const [key] = await env.app.adapter.listAuthenticatorsByUserId((await env.app.adapter.getUserByEmail(email))!.id)
    const listed = await run(`window.authClient().passkey.rename(${JSON.stringify(key!.credentialID)}, 'Phone')`)
    expect(listed).toMatchObject({ ok: true, value: [{ id: key!.credentialID, name: 'Phone' }] })
    expect((await env.app.adapter.getAuthenticator(key!.credentialID))?.name).toBe('Phone')
  })

  test('bad names, another user’s passkey, signed out and no CSRF are refused, changing nothing', async () => {
    await tab.swapAuthenticator()
    const owner = new Ceremony(tab.page, env.app.handler, env.running.origin)
    const reg = await owner.run('register', { email: freshEmail() })
    expect(reg.status).toBe(200)
    const id = reg.data.id as string
    const post = async (c: Ceremony, body: Record<string, unknown>, csrf = true) => {
      const res = await c.jar.postJson('/auth/passkeys', { ...body, ...(csrf && { csrfToken: await c.jar.csrf() }) })
      return { status: res.status, body: await res.json(), reason: res.headers.get('latchkey-webauthn-error') }
    }
    await post(owner, { action: 'rename', id, name: 'Kept' })
    for (const name of ['x'.repeat(65), 'tab\there', 42, null]) {
      expect(await post(owner, { action: 'rename', id, name }), String(name)).toMatchObject({ status: 400, reason: 'invalid', body: { error: 'InvalidRequest' } })
    }
    expect(await post(owner, { action: 'rename', name: 'No id' })).toMatchObject({ status: 400, reason: 'invalid' })
    // 64 characters (of any script) is the limit, inclusive.
    expect((await post(owner, { action: 'rename', id, name: 'é'.repeat(64) })).status).toBe(200)
    await post(owner, { action: 'rename', id, name: 'Kept' })

    await tab.swapAuthenticator()
    const stranger = new Ceremony(tab.page, env.app.handler, env.running.origin)
    expect((await stranger.run('register', { email: freshEmail() })).status).toBe(200)
    expect(await post(stranger, { action: 'rename', id, name: 'Mine now' })).toMatchObject({ status: 404, reason: 'unknown-credential' })
    const signedOut = new Ceremony(tab.page, env.app.handler, env.running.origin)
    expect((await post(signedOut, { action: 'rename', id, name: 'Anyone' })).status).toBe(401)
    expect((await post(owner, { action: 'rename', id, name: 'No CSRF' }, false)).status).toBe(403)
    expect((await env.app.adapter.getAuthenticator(id))?.name).toBe('Kept')
  })

  test('an adapter without updateAuthenticatorName answers 501 NotSupported to a rename, naming the method', async () => {
    const { updateAuthenticatorName: _, ...lacking } = MemoryAdapter()
    const bare = passkeyApp({}, lacking as ReturnType<typeof MemoryAdapter>)
    const c = new Ceremony(tab.page, bare.handler, env.running.origin)
    await tab.swapAuthenticator()
    const reg = await c.run('register', { email: freshEmail() })
    expect(reg.status).toBe(200)
    const res = await c.jar.postJson('/auth/passkeys', { action: 'rename', id: reg.data.id, name: 'x', csrfToken: await c.jar.csrf() })
    expect(res.status).toBe(501)
    expect((await res.json()).message).toMatch(/updateAuthenticatorName/)
  })
})
