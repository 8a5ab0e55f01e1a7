/**
 * Browser builds, library mode (Vite 8, rolldown). Three outputs, one mode each:
 *   vite build              dist/latchkey.js, dist/latchkey-components.js, dist/latchkey-passkey.js (ESM, lazy chunk in dist/chunks/)
 *   vite build --mode iife  dist/latchkey.iife.js (drop-in <script>, global `Latchkey`)
 *   vite build --mode sw    dist/latchkey-sw.js (the service worker, one classic script)
 * Dependencies (comlink, idb) are bundled so every file runs straight from a static server.
 */
import { defineConfig, type UserConfig } from 'vite'

export default defineConfig(({ mode }): UserConfig => {
  const lib =
    mode === 'sw'
      ? { entry: 'sw/latchkey-sw.ts', formats: ['iife' as const], name: 'LatchkeyWorker', fileName: () => 'latchkey-sw.js' }
      : mode === 'iife'
        ? { entry: 'src/components/drop-in.ts', formats: ['iife' as const], name: 'Latchkey', fileName: () => 'latchkey.iife.js' }
        : {
            entry: { latchkey: 'src/client/index.ts', 'latchkey-components': 'src/components/index.ts', 'latchkey-passkey': 'src/client/passkey/index.ts' },
            formats: ['es' as const],
            fileName: (_format: string, name: string) => `${name}.js`,
          }
  return {
    publicDir: false,
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
        output: mode === 'sw' || mode === 'iife' ? { codeSplitting: false } : { chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  }
})
