/**
 * An element whose client plugin the app did not pass: the console names the plugin to pass, the
 * element shows the failure in words, and the page goes on (no uncaught error).
 */
import { expect, test } from 'vitest'
import { browserAndServer, sendSignInEmail, signInWithForm, statusOf } from './helpers.js'

const page = `<!doctype html><html lang="en"><meta charset="utf-8"><title>no plugins</title>
<latchkey-signin></latchkey-signin><latchkey-sessions></latchkey-sessions>
<script type="module">
import { createAuthClient } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
window.client = createAuthClient({ basePath: '/auth', serviceWorker: false })
defineElements(window.client)
window.ready = true
</script></html>`

const env = browserAndServer({ pages: { '/bare': page } })

/** The page without plugins in a new context, with the console's errors and the uncaught ones it logs. */
async function openBare() {
  const context = await env.browser.newContext()
  const tab = await context.newPage()
  const consoleErrors: string[] = []
  const uncaught: string[] = []
  tab.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()))
  tab.on('pageerror', (e) => uncaught.push(e.message))
  await tab.goto(env.server.url + '/bare')
  await tab.waitForFunction(() => window.ready === true)
  return { context, tab, consoleErrors, uncaught }
}

test('<latchkey-sessions> without the sessions plugin: a console error names it, the element says it failed, nothing throws', async () => {
  const { context, tab, consoleErrors, uncaught } = await openBare()
  await signInWithForm(tab, 'bare')
  await expect.poll(() => statusOf(tab)).toBe('authenticated')
  const error = tab.locator('latchkey-sessions [part="error"]')
  await expect.poll(() => error.isVisible()).toBe(true)
  expect(consoleErrors.filter((m) => m.includes('<latchkey-sessions> needs the sessions plugin: createAuthClient({ plugins: [sessions()] })'))).toHaveLength(1)
  expect(uncaught).toEqual([])
  await context.close()
})

test('<latchkey-signin> without the emailCodes plugin: the code step still shows, and typing the code names the plugin', async () => {
  const { context, tab, consoleErrors, uncaught } = await openBare()
  await sendSignInEmail(tab, 'nora@example.com')
  const code = tab.locator('latchkey-signin form[part~="code-form"]')
  await expect.poll(() => code.isVisible()).toBe(true)
  await code.locator('input[name="code"]').fill('123456')
  await code.locator('button').click()
  await expect.poll(() => tab.locator('latchkey-signin [part="error"]').isVisible()).toBe(true)
  expect(consoleErrors.filter((m) => m.includes('<latchkey-signin> needs the emailCodes plugin: createAuthClient({ plugins: [emailCodes()] })'))).toHaveLength(1)
  expect(uncaught).toEqual([])
  expect(await statusOf(tab)).toBe('unauthenticated')
  await context.close()
})

test('client.signIn with a passkey provider without the passkey plugin: refused, naming the plugin', async () => {
  const { context, tab } = await openBare()
  const refused = await tab.evaluate(() => window.client.signIn('passkey', { redirect: false }).then(() => undefined, (e: { code: string; message: string }) => ({ code: e.code, message: e.message })))
  expect(refused).toEqual({ code: 'UnknownProvider', message: expect.stringContaining('createAuthClient({ plugins: [passkey()] })') })
  await context.close()
})
