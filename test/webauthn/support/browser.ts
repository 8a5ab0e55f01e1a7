/** Chromium with a CDP virtual authenticator (CTAP2, internal, resident keys, user verification). */
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core'

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  })
}

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
