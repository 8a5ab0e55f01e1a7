/**
 * The framework bindings in Chromium: each example under examples/ (React, Vue, Svelte 5) built
 * by Vite with the real framework and latchkey's built files; a sign-in in one tab re-renders
 * the component in another, and a sign-out the same.
 */
import { describe, expect, test } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { appPage, buildApp } from '../support/example-app.js'
import { browserAndServer } from './helpers.js'

const apps = ['react', 'vue', 'svelte']

const env = browserAndServer(async () => {
  const scripts: Record<string, string> = {}
  for (const name of apps) scripts[`/app-${name}.js`] = await buildApp(name)
  return { scripts }
}, { timeout: 120_000 })

async function open(context: BrowserContext, name: string): Promise<Page> {
  const page = await context.newPage()
  page.on('pageerror', (e) => console.error(`[${name} page error]`, e.message))
  await page.goto(`${env.server.url}/${name}.html`)
  return page
}

const shown = (page: Page) => page.locator('#out').textContent()

describe.each(apps)('latchkey/%s (examples/%s-vite)', (name) => {
  test('a sign-in in one tab re-renders the component in another; a sign-out the same', async () => {
    const context = await env.browser.newContext()
    await context.route(`**/${name}.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: appPage(name) }),
    )
    // Every text #out shows, in order, from the first render on.
    await context.addInitScript(() => {
      const seen: string[] = ((window as unknown as { seen: string[] }).seen = [])
      new MutationObserver(() => {
        const text = document.getElementById('out')?.textContent
        if (text != null && text !== seen.at(-1)) seen.push(text)
      }).observe(document, { childList: true, subtree: true, characterData: true })
    })
    const [one, two] = [await open(context, name), await open(context, name)]
    for (const page of [one, two]) await expect.poll(() => shown(page)).toBe('unauthenticated:')
    // The first render, before the client has read the session, says loading.
    for (const page of [one, two]) expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(['loading:', 'unauthenticated:'])
    // The React example renders <latchkey-signin> inside its tree while signed out.
    if (name === 'react') await expect.poll(() => two.locator('latchkey-signin form[part~="identifier-form"]').count()).toBe(1)
    const signedIn = await one.evaluate(async () => (await window.client.signIn('credentials', { username: 'fw', password: 'secret', redirect: false })).ok)
    expect(signedIn).toBe(true)
    await expect.poll(() => shown(two)).toBe('authenticated:fw@example.com')
    if (name === 'react') expect(await two.locator('latchkey-signin').count()).toBe(0)
    await one.evaluate(() => window.client.signOut({ redirect: false }))
    await expect.poll(() => shown(two)).toBe('unauthenticated:')
    expect(await two.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(['loading:', 'unauthenticated:', 'authenticated:fw@example.com', 'unauthenticated:'])
    await context.close()
  })
})
