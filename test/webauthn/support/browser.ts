/** Chromium with a CDP virtual authenticator (CTAP2, internal, resident keys, user verification). */
import type { Browser, CDPSession, Page, Response } from 'playwright-core'

export interface AuthenticatorPage {
  page: Page
  cdp: CDPSession
  authenticatorId: string
  /** Replaces the virtual authenticator with a new, empty one (another device). */
  swapAuthenticator(): Promise<string>
}

/** `waitForReady: false` for pages that set no `window.ready` (the drop-in page). */
export async function openWithAuthenticator(browser: Browser, url: string, { waitForReady = true } = {}): Promise<AuthenticatorPage> {
  const context = await browser.newContext()
  const page = await context.newPage()
  page.on('pageerror', (e) => console.error('[page error]', e.message))
  const cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable', { enableUI: false })
  const add = async () =>
    (
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      })
    ).authenticatorId
  const result: AuthenticatorPage = {
    page,
    cdp,
    authenticatorId: await add(),
    async swapAuthenticator() {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: result.authenticatorId })
      result.authenticatorId = await add()
      return result.authenticatorId
    },
  }
  await page.goto(url)
  if (waitForReady) await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true)
  return result
}

/** Resolves when the page's passkey client has its ceremony options for `action` from the server. */
export function optionsAnswered(page: Page, action: 'authenticate' | 'register'): Promise<Response> {
  return page.waitForResponse((r) => r.url().includes('/webauthn-options/') && r.url().includes(`action=${action}`))
}
