/**
 * The demo app's Vite build: demo/app/index.html (the single-page app), demo/app/react.html (its
 * React page, on latchkey/react) plus the static files in
 * demo/app/public (the drop-in page, styles). The app imports `latchkey` as an app would after
 * `npm install latchkey`; here the names point at this repository's sources, so the demo needs no
 * build of the package and no registry.
 */
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const src = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url))

export default defineConfig({
  root: fileURLToPath(new URL('./app', import.meta.url)),
  publicDir: 'public',
  logLevel: 'warn',
  resolve: {
    alias: [
      { find: /^latchkey$/, replacement: src('client/index.ts') },
      { find: /^latchkey\/components$/, replacement: src('components/index.ts') },
      { find: /^latchkey\/passkey$/, replacement: src('client/passkey/index.ts') },
      { find: /^latchkey\/react$/, replacement: src('bindings/react.ts') },
    ],
  },
  build: {
    target: 'es2022',
    outDir: fileURLToPath(new URL('../.latchkey/build', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      checks: { pluginTimings: false },
      // Two pages: the app, and the same session through latchkey/react.
      input: { main: fileURLToPath(new URL('./app/index.html', import.meta.url)), react: fileURLToPath(new URL('./app/react.html', import.meta.url)) },
    },
  },
})
