/**
 * The account settings page the profile tests drive (and scripts/profile-screenshots.ts shoots): a
 * page that declares `color-scheme: light dark`, an `<h1>`, and the elements its query names
 * (`?show=latchkey-passkeys`; default `<latchkey-profile>`), with a client of every plugin but
 * those `?without=` names; and the steps that give a user a password, a passkey and an
 * authenticator app.
 */
import type { Page } from 'playwright-core'
import type { AppServer } from '../support/app-server.js'
import { totp } from '../support/totp.js'

export const profilePage = `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>Your account</title>
<style>html{background:Canvas;color:CanvasText}body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1rem}main{max-width:44rem;margin:auto}h1{font-size:1.5rem;margin:0 0 1.5rem}</style>
<main><h1>Your account</h1></main>
<script type="module">
import { createAuthClient, accounts, identity, mfa, password, sessions } from '/latchkey.js'
import { passkey } from '/latchkey-passkey.js'
import { defineElements } from '/latchkey-components.js'
const params = new URLSearchParams(location.search)
const without = params.getAll('without')
const plugins = Object.entries({ identity, mfa, password, sessions, accounts, passkey }).filter(([name]) => !without.includes(name)).map(([, make]) => make())
window.client = createAuthClient({ basePath: '/auth', serviceWorker: false, plugins })
for (const name of params.getAll('show').length ? params.getAll('show') : ['latchkey-profile']) document.querySelector('main').append(document.createElement(name))
defineElements(window.client)
window.ready = true
</script></html>`

export const newPassword = 'a long enough password'

/** Signs `username` in with the credentials provider (any name, password "secret"). */
export const signIn = (page: Page, username: string) =>
  page.evaluate(async (username) => {
    const result = await window.client.signIn('credentials', { username, password: 'secret', redirect: false })
    if (!result.ok) throw new Error(`sign-in refused: ${result.error}`)
    await window.client.getSession()
  }, username)

/**
 * A passkey of `username`'s, planted in the store as a registration leaves it (no ceremony, so no
 * authenticator is needed): synced, from Google Password Manager (its AAGUID), unnamed.
 */
export async function plantPasskey(server: AppServer, username: string, extra: { name?: string; aaguid?: string } = {}): Promise<string> {
  const credentialID = `planted-${username}-${Math.random().toString(36).slice(2)}`
  await server.adapter.createAuthenticator!({
    credentialID, credentialPublicKey: 'pQECAyYgASFYIA', userId: `user-${username}`, providerAccountId: credentialID, counter: 0,
    credentialDeviceType: 'multiDevice', credentialBackedUp: true, transports: 'internal,hybrid', createdAt: new Date(server.now()),
    aaguid: 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4', name: null, ...extra,
  })
  return credentialID
}

/**
 * Signs `username` in and gives them a password, a passkey (plantPasskey) and an authenticator
 * app, through the client. `beforeApp`: what to do once the password is set (which ends the
 * user's other sessions) and before the app (after which a sign-in asks for its code). Answers
 * the app's secret.
 */
export async function fullUser(page: Page, server: AppServer, username: string, beforeApp?: () => Promise<void>): Promise<string> {
  await signIn(page, username)
  await page.evaluate((password) => window.client.password.set({ password }), newPassword)
  await plantPasskey(server, username)
  await beforeApp?.()
  const { id, secret } = await page.evaluate(async () => {
    const made = await window.client.mfa.enroll()
    return { id: made.factor.id, secret: made.secret }
  })
  await page.evaluate(([id, code]) => window.client.mfa.confirm(id!, code!), [id, totp(secret, server.now())])
  return secret
}
