/**
 * Browser builds, library mode (Vite 8, rolldown). One mode each:
 *   vite build              dist/latchkey.js, dist/latchkey-components.js, dist/latchkey-passkey.js, and the bindings
 *                           dist/latchkey-react.js, -vue.js, -svelte.js (ESM, lazy chunk in dist/chunks/), and
 *                           dist/locales/<tag>.js: the elements' languages but English, loaded on demand
 *                           by latchkey-components.js and by the drop-in script beside them, and
 *                           dist/locales/<tag>-profile.js: the account settings elements' words, the same way, and
 *                           dist/locales/<tag>-sso.js: <latchkey-sso-setup>'s
 *   vite build --mode locales  dist/locales/<tag>.js alone (the demo serves them beside its drop-in)
 *   vite build --mode iife  dist/latchkey.iife.js (drop-in <script>, global `Latchkey`), and its later parts beside it,
 *                           dist/latchkey-settings.js and dist/latchkey-steps.js (scripts/drop-in-parts.ts)
 *   vite build --mode iife-passkey  dist/latchkey-passkey.iife.js (the drop-in's passkey part, onto `Latchkey`)
 *   vite build --mode sw    dist/latchkey-sw.js (latchkey's own service worker, one classic script)
 *   vite build --mode sw-lib  dist/latchkey-sw-import.js (classic, for importScripts: global `LatchkeyWorker`)
 *                             and dist/latchkey-sw-module.js (ESM, `latchkey/sw`): the worker for an app's own worker to include
 * Dependencies (idb) are bundled so every file runs straight from a static server.
 */
import { defineConfig, type UserConfig } from 'vite'
import { languages } from './src/locales/index.js'
import { dropInParts } from './scripts/drop-in-parts.js'

/**
 * Each language file as an entry of its own, so the ESM build and the drop-in share one file each:
 * the elements' words (`locales/<tag>.js`), the account settings elements' (`locales/<tag>-profile.js`)
 * and `<latchkey-sso-setup>`'s (`locales/<tag>-sso.js`).
 */
const locales = Object.fromEntries(
  languages.filter((tag) => tag !== 'en').flatMap((tag) => [[`locales/${tag}`, `src/locales/${tag}/elements.ts`], [`locales/${tag}-profile`, `src/locales/${tag}/profile.ts`], [`locales/${tag}-sso`, `src/locales/${tag}/sso.ts`]]),
)

export default defineConfig(({ mode }): UserConfig => {
  const lib =
    mode === 'sw'
      ? { entry: 'sw/latchkey-sw.ts', formats: ['iife' as const], name: 'LatchkeyWorker', fileName: () => 'latchkey-sw.js' }
      : mode === 'sw-lib'
        ? { entry: 'sw/index.ts', formats: ['iife' as const, 'es' as const], name: 'LatchkeyWorker', fileName: (format: string) => (format === 'es' ? 'latchkey-sw-module.js' : 'latchkey-sw-import.js') }
        : mode === 'iife'
        ? { entry: 'src/components/drop-in.ts', formats: ['iife' as const], name: 'Latchkey', fileName: () => 'latchkey.iife.js' }
        : mode === 'iife-passkey'
          ? { entry: 'src/components/drop-in-passkey.ts', formats: ['iife' as const], name: 'Latchkey', fileName: () => 'latchkey-passkey.iife.js' }
          : mode === 'locales'
            ? { entry: locales, formats: ['es' as const], fileName: (_format: string, name: string) => `${name}.js` }
          : {
            entry: {
              ...locales,
              latchkey: 'src/client/index.ts',
              'latchkey-components': 'src/components/index.ts',
              'latchkey-passkey': 'src/client/passkey/index.ts',
              // The framework bindings: a few lines each over the client; the framework stays the app's.
              'latchkey-react': 'src/bindings/react.ts',
              'latchkey-vue': 'src/bindings/vue.ts',
              'latchkey-svelte': 'src/bindings/svelte.ts',
            },
            formats: ['es' as const],
            fileName: (_format: string, name: string) => `${name}.js`,
          }
  return {
    publicDir: false,
    plugins: mode === 'iife' ? [dropInParts()] : [],
    logLevel: 'warn',
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      copyPublicDir: false,
      lib,
      rolldownOptions: {
        external: ['react', 'vue', 'svelte/store'],
        // The passkey part adds to the drop-in's global rather than making its own.
        output: mode.startsWith('sw') || mode.startsWith('iife') ? { codeSplitting: false, extend: mode === 'iife-passkey' } : { chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  }
})
