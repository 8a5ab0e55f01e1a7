/**
 * The framework bindings in Chromium, each in a small app built by Vite with the real framework
 * (React, Vue, Svelte 5) and the shipped binding file: a sign-in in one tab re-renders the
 * component in another, and a sign-out the same.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startAppServer, type AppServer } from '../support/app-server.js'
import { launchBrowser } from '../support/browser.js'
import { ensureBuilt } from './ensure-built.js'

const dist = join(import.meta.dirname, '../../dist')
const client = `import { createAuthClient } from '/latchkey.js'
export const client = createAuthClient({ basePath: '/auth', serviceWorker: '/latchkey-sw.js' })
window.client = client`

const apps: Record<string, Record<string, string>> = {
  react: {
    'main.js': `import { createElement as h } from 'react'
import { createRoot } from 'react-dom/client'
import { useSession } from 'latchkey/react'
import { client } from './client.js'
function App() {
  const { data, status } = useSession(client)
  return h('p', { id: 'out' }, status + ':' + (data?.user?.email ?? ''))
}
createRoot(document.getElementById('root')).render(h(App))`,
  },
  vue: {
    'main.js': `import { createApp, h } from 'vue'
import { useSession } from 'latchkey/vue'
import { client } from './client.js'
createApp({
  setup() {
    const { data, status } = useSession(client)
    return () => h('p', { id: 'out' }, status.value + ':' + (data.value?.user?.email ?? ''))
  },
}).mount('#root')`,
  },
  svelte: {
    'App.svelte': `<script>
  import { sessionStore } from 'latchkey/svelte'
  let { client } = $props()
  const session = sessionStore(client)
</script>
<p id="out">{$session.status}:{$session.data?.user?.email ?? ''}</p>`,
    'main.js': `import { mount } from 'svelte'
import App from './App.svelte'
import { client } from './client.js'
mount(App, { target: document.getElementById('root'), props: { client } })`,
  },
}

/** Builds one app with Vite: the framework bundled, the binding from dist, the client from the server. */
async function buildApp(name: string): Promise<string> {
  // Inside the repository, so the app's imports resolve in its node_modules.
  const cache = join(import.meta.dirname, '../../node_modules/.cache')
  await mkdir(cache, { recursive: true })
  const dir = await mkdtemp(join(cache, `latchkey-${name}-`))
  try {
    for (const [file, text] of Object.entries({ ...apps[name], 'client.js': client })) await writeFile(join(dir, file), text)
    const { build } = await import('vite')
    const plugins = name === 'svelte' ? [(await import('@sveltejs/vite-plugin-svelte')).svelte()] : []
    const nodeEnv = process.env.NODE_ENV
    const out = await build({
      root: dir,
      configFile: false,
      logLevel: 'warn',
      plugins,
      resolve: { alias: { [`latchkey/${name}`]: join(dist, `latchkey-${name}.js`) } },
      define: { 'process.env.NODE_ENV': '"production"' },
      build: { write: false, minify: false, lib: { entry: join(dir, 'main.js'), formats: ['es'], fileName: 'app' }, rolldownOptions: { external: ['/latchkey.js'] } },
    }).finally(() => (nodeEnv === undefined ? delete process.env.NODE_ENV : (process.env.NODE_ENV = nodeEnv)))
    const output = (Array.isArray(out) ? out[0] : out) as { output: Array<{ type: string; code?: string; fileName: string }> }
    return output.output.find((o) => o.type === 'chunk')!.code!
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

let browser: Browser
let server: AppServer
const scripts: Record<string, string> = {}

beforeAll(async () => {
  await ensureBuilt()
  for (const name of Object.keys(apps)) scripts[`/app-${name}.js`] = await buildApp(name)
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

describe.each(Object.keys(apps))('latchkey/%s', (name) => {
  test('a sign-in in one tab re-renders the component in another; a sign-out the same', async () => {
    const context = await browser.newContext()
    await context.route(`**/${name}.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><div id="root"></div><script type="module" src="/app-${name}.js"></script>` }),
    )
    const [one, two] = [await open(context, name), await open(context, name)]
    for (const page of [one, two]) await expect.poll(() => shown(page)).toBe('unauthenticated:')
    const signedIn = await one.evaluate(async () => (await window.client.signIn('credentials', { username: 'fw', password: 'secret', redirect: false })).ok)
    expect(signedIn).toBe(true)
    await expect.poll(() => shown(two)).toBe('authenticated:fw@example.com')
    await one.evaluate(() => window.client.signOut({ redirect: false }))
    await expect.poll(() => shown(two)).toBe('unauthenticated:')
    await context.close()
  })
})
