/**
 * The framework bindings in Chromium: each example under examples/ (React, Vue, Svelte 5) built
 * by Vite with the real framework and latchkey's built files; a sign-in in one tab re-renders
 * the component in another, and a sign-out the same.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startAppServer, type AppServer } from '../support/app-server.js'
import { launchBrowser } from '../support/browser.js'
import { ensureBuilt } from './ensure-built.js'

const dist = join(import.meta.dirname, '../../dist')
/** The examples under examples/, as their guides describe them. */
const examples = join(import.meta.dirname, '../../examples')
const apps = ['react', 'vue', 'svelte']

/** Builds an example with Vite, as its app would: the framework and latchkey's shipped files bundled. */
async function buildApp(name: string): Promise<string> {
  const { build } = await import('vite')
  const plugins = name === 'svelte' ? [(await import('@sveltejs/vite-plugin-svelte')).svelte()] : []
  const nodeEnv = process.env.NODE_ENV
  const out = await build({
    root: join(examples, `${name}-vite`),
    configFile: false,
    logLevel: 'warn',
    plugins,
    // The package as npm installs it, its built files: the binding bundled into the app; the SDK
    // and components left as the server's own /latchkey.js files (with their lazy chunks).
    resolve: {
      alias: [
        { find: /^latchkey$/, replacement: '/latchkey.js' },
        { find: /^latchkey\/components$/, replacement: '/latchkey-components.js' },
        { find: /^latchkey\/(react|vue|svelte)$/, replacement: join(dist, 'latchkey-$1.js') },
      ],
    },
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      minify: false,
      lib: { entry: join(examples, `${name}-vite/main.js`), formats: ['es'], fileName: 'app' },
      rolldownOptions: { external: ['/latchkey.js', '/latchkey-components.js'] },
    },
  }).finally(() => (nodeEnv === undefined ? delete process.env.NODE_ENV : (process.env.NODE_ENV = nodeEnv)))
  const output = (Array.isArray(out) ? out[0] : out) as { output: Array<{ type: string; code?: string; isEntry?: boolean }> }
  return output.output.find((o) => o.type === 'chunk' && o.isEntry)!.code!
}

let browser: Browser
let server: AppServer
const scripts: Record<string, string> = {}

beforeAll(async () => {
  await ensureBuilt()
  for (const name of apps) scripts[`/app-${name}.js`] = await buildApp(name)
  ;[browser, server] = await Promise.all([launchBrowser(), startAppServer({ scripts })])
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function open(context: BrowserContext, name: string): Promise<Page> {
  const page = await context.newPage()
  page.on('pageerror', (e) => console.error(`[${name} page error]`, e.message))
  await page.goto(`${server.url}/${name}.html`)
  return page
}

const shown = (page: Page) => page.locator('#out').textContent()

describe.each(apps)('latchkey/%s (examples/%s-vite)', (name) => {
  test('a sign-in in one tab re-renders the component in another; a sign-out the same', async () => {
    const context = await browser.newContext()
    await context.route(`**/${name}.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><div id="root"></div><script type="module" src="/app-${name}.js"></script>` }),
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
    if (name === 'react') await expect.poll(() => two.locator('latchkey-signin form[part~="credentials-form"]').count()).toBe(1)
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
