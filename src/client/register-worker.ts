/**
 * Registers latchkey's own worker, when the app asks for it, and never over another script: a
 * registration replaces the worker at its scope, and with it the app's offline page and caches.
 * Loaded only when the app names a script to register.
 */
export interface WorkerRegistrationResult {
  /**
   * `registered`; `skipped`: another script is the worker at that scope, so nothing was
   * registered (`message` says what to do); `failed`: the browser refused (`message`);
   * `off`: no script to register, or no service workers in this browser.
   */
  status: 'registered' | 'skipped' | 'failed' | 'off'
  message?: string
}

const path = (url: string) => url.replace(/[?#].*$/, '')

export async function registerWorker(script: string): Promise<WorkerRegistrationResult> {
  const container = navigator.serviceWorker
  if (!container) return { status: 'off' }
  const url = new URL(script, location.href)
  const scope = new URL('./', url).href
  try {
    const existing = await container.getRegistration(scope)
    const holder = existing?.scope === scope ? (existing.active ?? existing.waiting ?? existing.installing)?.scriptURL : undefined
    if (holder && path(holder) !== path(url.href)) {
      const message =
        `latchkey: ${url.pathname} was not registered: ${holder} is the service worker at ${scope}, and it would have been replaced. ` +
        `Sessions are kept by the page instead. To keep them in that worker, include latchkey in it ` +
        `(importScripts('/latchkey-sw-import.js'); LatchkeyWorker.installLatchkey({ basePath }), or installLatchkey from 'latchkey/sw') ` +
        `and leave serviceWorker unset.`
      console.warn(message)
      return { status: 'skipped', message }
    }
    await container.register(url.href)
    return { status: 'registered' }
  } catch (e) {
    const message = `latchkey: ${url.pathname}${url.search} could not be registered: ${await whyRefused(url, e)}`
    console.warn(message)
    return { status: 'failed', message }
  }
}

/**
 * The browser's refusal says "unsupported MIME type" at best: one request for the script tells
 * what the server really answers there (most often an app's HTML page under a catch-all route).
 */
async function whyRefused(url: URL, error: unknown): Promise<string> {
  const fix = 'serve node_modules/latchkey/dist/latchkey-sw.js there or use latchkey/vite'
  try {
    const response = await fetch(url, { cache: 'no-store', credentials: 'omit' })
    const type = response.headers.get('content-type')?.split(';')[0]?.trim() || 'no content type'
    if (!response.ok) return `the server answered ${response.status} ${type}; ${fix}`
    if (!/javascript|ecmascript/i.test(type)) return `the server answered ${response.status} ${type}, a service worker must be served as JavaScript; ${fix}`
  } catch {
    // Unreachable too: the browser's own words are all there is.
  }
  return (error as Error)?.message ?? String(error)
}
