/**
 * The WebAuthn Signal API in Chromium with the virtual authenticator: the passkey client tells the
 * browser's passkey manager what the server holds. Every call is recorded in the page (then passed
 * on to Chromium's own method), and where Chromium's virtual authenticator applies the signal the
 * test reads the authenticator's credentials over CDP (`WebAuthn.getCredentials`).
 */
import { describe, expect, test } from 'vitest'
import { toBase64Url } from '../../src/core/encoding.js'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { browserAndPasskeyApp, passkeyApp } from './support/app.js'
import { openWithAuthenticator, type AuthenticatorPage } from './support/browser.js'

type Outcome = { ok: true; value: any } | { ok: false; name: string; code?: string; reason?: string; message: string }
type Call = { method: string; options: any }

// `update({ name })` renames the user, as an app's profile form would.
const adapter = MemoryAdapter()
const env = browserAndPasskeyApp(() =>
  passkeyApp({
    callbacks: {
      async session({ session, user, trigger, newSession }: any) {
        const name = trigger === 'update' ? (newSession as { name?: string } | undefined)?.name : undefined
        if (!name) return session
        await adapter.updateUser({ id: user.id, name })
        return { ...session, user: { ...session.user, name } }
      },
    },
  }, adapter),
)

let n = 0
const freshEmail = () => `signals${++n}-${Date.now()}@example.com`
const run = (tab: AuthenticatorPage, script: string): Promise<Outcome> =>
  tab.page.evaluate((s) => (window as any).outcome(() => (0, eval)(s)), script) as Promise<Outcome>
const signals = (tab: AuthenticatorPage): Promise<Call[]> => tab.page.evaluate(() => (window as any).signals)
const stored = async (tab: AuthenticatorPage) =>
  (await tab.cdp.send('WebAuthn.getCredentials', { authenticatorId: tab.authenticatorId })).credentials as Array<{ credentialId: string; userName?: string; userDisplayName?: string }>
/** CDP gives credential ids in base64; the server's are base64url. */
const idsOf = (list: Array<{ credentialId: string }>) => list.map((c) => c.credentialId.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))

async function signedUpTab() {
  const tab = await openWithAuthenticator(env.browser, env.running.origin + '/')
  const email = freshEmail()
  const reg = await run(tab, `window.passkey.register({ email: ${JSON.stringify(email)} })`)
  expect(reg.ok, JSON.stringify(reg)).toBe(true)
  const user = (await env.app.adapter.getUserByEmail(email))!
  const [key] = await env.app.adapter.listAuthenticatorsByUserId(user.id)
  await tab.page.evaluate(() => (window as any).recordSignals())
  return { tab, email, user, id: key!.credentialID }
}

describe('Signal API', () => {
  test('a passkey removed on the server: the next sign-in is refused as unknown, the client signals signalUnknownCredential, and Chromium drops it', async () => {
    const { tab, id } = await signedUpTab()
    await tab.page.evaluate(() => (window as any).signOut())
    expect(idsOf(await stored(tab))).toEqual([id])
    await env.app.adapter.deleteAuthenticator(id)

    const signIn = await run(tab, 'window.passkey.signIn()')
    expect(signIn).toMatchObject({ ok: false, reason: 'unknown-credential' })
    // The refusal names no user: only that the credential is unknown.
    expect(await signals(tab)).toEqual([{ method: 'signalUnknownCredential', options: { rpId: 'localhost', credentialId: id } }])
    expect(await stored(tab)).toEqual([])
  })

  test('after removing a passkey the client signals the accepted list; one removed elsewhere then leaves this device too', async () => {
    const { tab, user, id: first } = await signedUpTab()
    // A second passkey, on another device (a new virtual authenticator), added while signed in.
    await tab.swapAuthenticator()
    expect((await run(tab, 'window.passkey.register()')).ok).toBe(true)
    const second = (await env.app.adapter.listAuthenticatorsByUserId(user.id)).map((a) => a.credentialID).find((c) => c !== first)!
    const userId = toBase64Url(new TextEncoder().encode(user.id))

    const removed = await run(tab, `window.passkey.remove(${JSON.stringify(first)})`)
    expect(removed.ok && removed.value.map((p: { id: string }) => p.id)).toEqual([second])
    const accepted = (await signals(tab)).filter((c) => c.method === 'signalAllAcceptedCredentials')
    expect(accepted.at(-1)!.options).toEqual({ rpId: 'localhost', userId, allAcceptedCredentialIds: [second] })
    // The device's own passkey is still accepted, so it stays.
    expect(idsOf(await stored(tab))).toEqual([second])

    // Removed on another device (straight in the store): the next list here tells this device's manager.
    await env.app.adapter.deleteAuthenticator(second)
    expect(await run(tab, 'window.passkey.list()')).toEqual({ ok: true, value: [] })
    expect((await signals(tab)).at(-2)).toEqual({ method: 'signalAllAcceptedCredentials', options: { rpId: 'localhost', userId, allAcceptedCredentialIds: [] } })
    expect(await stored(tab)).toEqual([])
  })

  test('after a name change the client signals the current details, and a passkey sign-in signals them too', async () => {
    const { tab, user, email } = await signedUpTab()
    const userId = toBase64Url(new TextEncoder().encode(user.id))
    await env.app.adapter.updateUser({ id: user.id, name: 'Ada Lovelace' })
    expect((await run(tab, 'window.passkey.list()')).ok).toBe(true)
    expect((await signals(tab)).at(-1)).toEqual({ method: 'signalCurrentUserDetails', options: { rpId: 'localhost', userId, name: email, displayName: 'Ada Lovelace' } })
    expect((await stored(tab))[0]).toMatchObject({ userName: email, userDisplayName: 'Ada Lovelace' })

    await tab.page.evaluate(() => (window as any).signOut())
    const before = (await signals(tab)).length
    expect((await run(tab, 'window.passkey.signIn()')).ok).toBe(true)
    // The sign-in does not wait for its signals; they follow.
    await tab.page.waitForFunction((count) => (window as any).signals.length >= count + 2, before)
    expect((await signals(tab)).slice(before).map((c) => c.method)).toEqual(['signalAllAcceptedCredentials', 'signalCurrentUserDetails'])
  })

  test('a browser without the Signal API: the client carries on and throws nothing into the app', async () => {
    const { tab } = await signedUpTab()
    await tab.page.evaluate(() => {
      const api = PublicKeyCredential as unknown as Record<string, unknown>
      for (const m of ['signalUnknownCredential', 'signalAllAcceptedCredentials', 'signalCurrentUserDetails']) api[m] = undefined
    })
    const listed = await run(tab, 'window.passkey.list()')
    expect(listed.ok && listed.value.length).toBe(1)
    // And one whose methods reject (the manager refused): still no error reaches the app.
    await tab.page.evaluate(() => {
      const api = PublicKeyCredential as unknown as Record<string, unknown>
      for (const m of ['signalUnknownCredential', 'signalAllAcceptedCredentials', 'signalCurrentUserDetails']) api[m] = () => Promise.reject(new DOMException('no', 'NotAllowedError'))
    })
    expect((await run(tab, 'window.passkey.list()')).ok).toBe(true)
  })

  test("the session's name changes (client.update here, or in another tab): the passkey plugin signals the current details", async () => {
    const { tab, user, email } = await signedUpTab()
    const userId = toBase64Url(new TextEncoder().encode(user.id))
    const other = await tab.page.context().newPage()
    await other.goto(env.running.origin + '/')
    await other.waitForFunction(() => (window as any).ready === true)
    await other.evaluate(() => (window as any).recordSignals())
    const signedIn = (page: AuthenticatorPage['page']) => page.waitForFunction(() => (window as any).authClient().status === 'authenticated')
    await Promise.all([signedIn(tab.page), signedIn(other)])
    const details = (name: string) => ({ method: 'signalCurrentUserDetails', options: { rpId: 'localhost', userId, name: email, displayName: name } })
    const told = (page: AuthenticatorPage['page'], name: string) =>
      page.waitForFunction((d) => (window as any).signals.some((c: Call) => JSON.stringify(c) === d), JSON.stringify(details(name)))

    expect((await run(tab, "window.authClient().update({ name: 'Grace Hopper' })")).ok).toBe(true)
    // This tab's update, and the other tab hearing it through the BroadcastChannel: both tell their passkey manager.
    await Promise.all([told(tab.page, 'Grace Hopper'), told(other, 'Grace Hopper')])
    await expect.poll(async () => (await stored(tab))[0]?.userDisplayName).toBe('Grace Hopper')

    // And the other way round: the update made in the other tab reaches this one.
    await other.evaluate(() => (window as any).authClient().update({ name: 'Ada' }))
    await told(tab.page, 'Ada')
    await other.close()
  })
})
