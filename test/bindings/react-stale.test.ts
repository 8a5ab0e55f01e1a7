/**
 * latchkey/react in Chromium with a stale session (the server unreachable, the last session kept):
 * the client's `session` getter marks it with a fresh `{ ...session, stale: true }` on each read,
 * so the hook must not use that read as its store snapshot (React would re-render without end).
 */
import { join } from 'node:path'
import { build } from 'esbuild'
import { beforeAll, expect, test } from 'vitest'
import { browserAnd } from '../support/browser-and.js'

const root = join(import.meta.dirname, '../..')

/** A client in the state the real one is in while stale: `session` is a new object on every read, as in create-auth-client.ts. */
const app = `
import { act, createElement as h } from 'react'
import { createRoot } from 'react-dom/client'
import { useSession } from './src/bindings/react.ts'

const listeners = new Set()
let state = { session: { user: { email: 'a@example.com' }, expires: '2999-01-01T00:00:00.000Z' }, stale: true, due: 0 }
const client = {
  get state() { return state },
  get status() { return state.session ? 'authenticated' : 'unauthenticated' },
  get session() { return state.stale && state.session ? { ...state.session, stale: true } : state.session },
  onSessionChange(l) { listeners.add(l); return () => listeners.delete(l) },
  update: async () => null,
}
// Rendering and changes run in act(), which answers once React has no work left: the signal that
// a render loop, had there been one, has shown itself.
globalThis.IS_REACT_ACT_ENVIRONMENT = true
window.signOut = async () => { await act(() => { state = { session: null, stale: false, due: 0 }; listeners.forEach((l) => l(null)) }) }
window.renders = 0
function App() {
  window.renders++
  const { data, status } = useSession(client)
  return h('p', { id: 'out' }, status + ':' + (data?.user?.email ?? '') + (data?.stale ? ':stale' : ''))
}
window.rendered = act(() => createRoot(document.getElementById('root')).render(h(App))).then(() => {})
`

const env = browserAnd()
let script: string
beforeAll(async () => {
  const out = await build({
    stdin: { contents: app, resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"development"' },
  })
  script = out.outputFiles[0].text
}, 60_000)

test('a stale session renders once, marked stale, and a change after it re-renders', async () => {
  const page = await env.browser.newPage()
  // An endless render loop blocks the page: fail in seconds rather than hang.
  page.setDefaultTimeout(5_000)
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  page.on('pageerror', (e) => errors.push(e.message))
  await page.setContent('<div id="root"></div>')
  await page.addScriptTag({ content: script })
  await expect.poll(() => page.textContent('#out'), { timeout: 5_000 }).toBe('authenticated:a@example.com:stale')
  await page.evaluate(() => (window as unknown as { rendered: Promise<void> }).rendered)
  expect(errors).toEqual([])
  expect(await page.evaluate(() => (window as unknown as { renders: number }).renders)).toBeLessThan(5)
  await page.evaluate(() => (window as unknown as { signOut(): void }).signOut())
  await expect.poll(() => page.textContent('#out')).toBe('unauthenticated:')
  expect(errors).toEqual([])
  await page.close()
}, 20_000)
