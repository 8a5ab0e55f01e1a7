import { readFileSync } from 'node:fs'
import type { Plugin } from 'vite'
import { workerScript } from './worker-script.js'

export interface LatchkeyPluginOptions {
  /**
   * Where the worker is served, from the site's root: the `serviceWorker` given to
   * `createAuthClient` (default `/latchkey-sw.js`). The worker's scope is its folder.
   */
  path?: string
}

/**
 * A Vite plugin that serves latchkey's service worker (`dist/latchkey-sw.js` of the package) at
 * `path` in `vite dev`, as JavaScript and ahead of the app's own routes, and writes it there in
 * `vite build`'s output (which `vite preview` serves).
 */
export function latchkey({ path = '/latchkey-sw.js' }: LatchkeyPluginOptions = {}): Plugin {
  if (!/^\/[\w./-]*\.m?js$/.test(path) || path.includes('..')) {
    throw new Error(`latchkey/vite: path must be a URL path from the site's root ending in .js, such as '/latchkey-sw.js'; got ${JSON.stringify(path)}.`)
  }
  const script = workerScript()
  return {
    name: 'latchkey',
    configureServer(server) {
      // Registered here, before Vite's own middleware, so no SPA fallback answers with HTML.
      server.middlewares.use((req, res, next) => {
        if (req.url?.replace(/[?#].*$/, '') !== path) return next()
        res.setHeader('Content-Type', 'text/javascript; charset=utf-8')
        res.setHeader('Cache-Control', 'no-cache')
        res.end(readFileSync(script))
      })
    },
    generateBundle() {
      // The browser's build only: a server (SSR) build has no use for the worker.
      if (this.environment?.config.consumer === 'server') return
      this.emitFile({ type: 'asset', fileName: path.slice(1), source: readFileSync(script) })
    },
  }
}
