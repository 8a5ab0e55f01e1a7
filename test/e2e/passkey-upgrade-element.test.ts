/**
 * `<latchkey-signin passkey-upgrade>`: after a credentials sign-in, the element asks the passkey
 * client for an automatic upgrade where the browser reports `conditionalCreate`. The passkey
 * client's `capabilities` and `upgrade` are stubbed in the page (headless Chromium has no password
 * manager to finish a conditional create; test/webauthn/upgrade.test.ts covers the ceremony and
 * the server's rules); what is tested is the element's decision.
 */
import { expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { browserAndServer, openPage, settled, signInWithForm, userName } from './helpers.js'

const env = browserAndServer()

/** Opens the page with the passkey client, its upgrade recorded rather than run; `conditionalCreate` as given. */
async function page(attribute: boolean, conditionalCreate: boolean): Promise<Page> {
  const context = await env.browser.newContext()
  const p = await openPage(context, env.server.url + '/?passkey&nosw', { controlled: false })
  await p.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true)
  await p.evaluate(([attr, can]) => {
    const w = window as unknown as { client: { passkey: Record<string, unknown> }; upgrades: number }
    w.upgrades = 0
    w.client.passkey.capabilities = async () => ({ conditionalCreate: can })
    w.client.passkey.upgrade = async () => {
      w.upgrades++
      return { url: location.href }
    }
    if (attr) document.querySelector('latchkey-signin')!.setAttribute('passkey-upgrade', '')
  }, [attribute, conditionalCreate] as const)
  return p
}
const upgrades = (p: Page) => p.evaluate(() => (window as unknown as { upgrades: number }).upgrades)

test('with passkey-upgrade and conditionalCreate, a credentials sign-in asks for the upgrade once', async () => {
  const p = await page(true, true)
  await signInWithForm(p, 'uma')
  await expect.poll(() => userName(p).textContent()).toBe('uma')
  await expect.poll(() => upgrades(p)).toBe(1)
  await p.context().close()
})

test('without the attribute, or where the browser cannot create conditionally, nothing is asked', async () => {
  for (const [attribute, can] of [[false, true], [true, false]] as const) {
    const p = await page(attribute, can)
    await signInWithForm(p, `vic-${attribute}`)
    await expect.poll(() => userName(p).textContent()).toBe(`vic-${attribute}`)
    // The element decides after the sign-in: wait until its sign-in work has ended.
    await settled(p)
    expect(await upgrades(p)).toBe(0)
    await p.context().close()
  }
})
