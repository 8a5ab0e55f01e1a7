/**
 * The device page (RFC 8628) in Chromium, by keyboard alone: verification_uri_complete sends a
 * signed-out user to the built-in sign-in page and back, the code is filled in, Enter goes on to
 * the consent screen showing the code, Tab to Allow and Enter, and the device's poll gets tokens.
 * A wrong code is said in place, tied to the field. axe finds nothing on each step, in English and
 * right to left in Arabic.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as oauth from 'oauth4webapi'
import { expect, test } from 'vitest'
import { toNodeHandler } from 'latchkey/node'
import { browserAnd } from '../support/browser-and.js'
import { violations } from '../e2e/axe.js'
import { deviceServer } from './oauth-server-device-support.js'
import type { AuthServer } from './oauth-server-support.js'

let server: AuthServer
const env = browserAnd(async () => {
  let handle: ReturnType<typeof toNodeHandler> | undefined
  const http = createServer((req, res) => handle!(req, res))
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  // localhost: the browser keeps Secure cookies there over http.
  const origin = `http://localhost:${(http.address() as AddressInfo).port}`
  // On the wall clock: the browser drops cookies whose expiry is past by its own.
  server = deviceServer({ resources: [`${origin}/mcp`] }, { origin }, { clock: { now: Date.now() } })
  handle = toNodeHandler(server.handler)
  return { origin, close: () => new Promise((resolve) => http.close(resolve)) }
})

async function startAt() {
  const base = new URL(env.server.origin)
  const as = await oauth.processDiscoveryResponse(base, await oauth.discoveryRequest(base, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }))
  const tv: oauth.Client = { client_id: 'tv', token_endpoint_auth_method: 'none' }
  const response = await oauth.deviceAuthorizationRequest(as, tv, oauth.None(), { scope: 'tools:read', resource: `${env.server.origin}/mcp` }, { [oauth.allowInsecureRequests]: true })
  return { as, started: await oauth.processDeviceAuthorizationResponse(as, tv, response) }
}

test('signed out → sign in → the code filled in → consent → allowed, by keyboard; wrong codes said in place; axe-clean', async () => {
  const { as, started } = await startAt()
  const context = await env.browser.newContext({ bypassCSP: true })
  const page = await context.newPage()
  page.setDefaultTimeout(8000)
  await page.goto(started.verification_uri_complete!)
  // The built-in sign-in page, coming back to the device page with the code.
  await page.locator('input[name="username"]').fill('ada')
  await page.keyboard.press('Enter')
  await page.locator('h1', { hasText: 'Connect a device' }).waitFor()
  const field = page.getByLabel('Code')
  expect(await field.inputValue()).toBe(started.user_code)
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('user_code')
  expect(await violations(page)).toEqual([])

  // A wrong code: said on the page, tied to the field, which has the focus again.
  await field.fill('bcdf-ghjk')
  await page.keyboard.press('Enter')
  await page.locator('#device-error').waitFor()
  expect(await page.getByLabel('Code').getAttribute('aria-describedby')).toBe('device-error')
  expect(await page.getByLabel('Code').getAttribute('aria-invalid')).toBe('true')
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('user_code')
  expect(await violations(page)).toEqual([])

  await page.getByLabel('Code').fill(started.user_code.toLowerCase())
  await page.keyboard.press('Enter')
  await page.locator('.user-code').waitFor()
  expect(await page.locator('.user-code').textContent()).toBe(started.user_code)
  expect(await page.locator('h1').textContent()).toContain('TV CLI')
  expect(await violations(page)).toEqual([])
  // Keyboard only: Tab reaches Allow first.
  let reached = ''
  for (let i = 0; i < 10 && reached !== 'Allow'; i++) {
    await page.keyboard.press('Tab')
    reached = (await page.evaluate(() => document.activeElement?.textContent)) ?? ''
  }
  expect(reached).toBe('Allow')
  await page.keyboard.press('Enter')
  await page.locator('h1', { hasText: 'Device connected' }).waitFor()
  expect(await violations(page)).toEqual([])
  const tv: oauth.Client = { client_id: 'tv', token_endpoint_auth_method: 'none' }
  const tokens = await oauth.processDeviceCodeResponse(as, tv, await oauth.deviceCodeGrantRequest(as, tv, oauth.None(), started.device_code, { [oauth.allowInsecureRequests]: true }))
  expect(tokens.access_token).toBeTypeOf('string')
  await context.close()
})

test('right to left in Arabic: the page’s direction, the code left to right, axe-clean', async () => {
  const { as, started } = await startAt()
  const context = await env.browser.newContext({ bypassCSP: true, locale: 'ar', extraHTTPHeaders: { 'accept-language': 'ar' } })
  const page = await context.newPage()
  page.setDefaultTimeout(8000)
  await page.goto(started.verification_uri_complete!)
  await page.locator('input[name="username"]').fill('bo')
  await page.keyboard.press('Enter')
  await page.locator('#user_code').waitFor()
  expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl')
  expect(await page.locator('h1').textContent()).toBe('ربط جهاز')
  expect(await violations(page)).toEqual([])
  await page.keyboard.press('Enter')
  await page.locator('.user-code').waitFor()
  expect(await page.locator('.user-code').getAttribute('dir')).toBe('ltr')
  expect(await violations(page)).toEqual([])
  await page.locator('button[value="deny"]').press('Enter')
  await page.locator('[role="status"]').waitFor()
  const tv: oauth.Client = { client_id: 'tv', token_endpoint_auth_method: 'none' }
  const polled = await oauth.deviceCodeGrantRequest(as, tv, oauth.None(), started.device_code, { [oauth.allowInsecureRequests]: true })
  expect(await polled.json()).toMatchObject({ error: 'access_denied' })
  await context.close()
})
