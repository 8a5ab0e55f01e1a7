/**
 * `npm start`: bundles the demo's server side (demo/server.ts and the Demo IdP's process) with
 * esbuild, a fraction of a second, and runs it with plain Node: no TypeScript loader at run time,
 * which keeps the start under a few seconds. `npx tsx demo/server.ts` runs the same from sources.
 */
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

const demo = fileURLToPath(new URL('.', import.meta.url))
const out = fileURLToPath(new URL('../.latchkey/node/', import.meta.url))

await build({
  entryPoints: { server: `${demo}server.ts`, 'idp-process': `${demo}idp-process.ts` },
  outdir: out,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  define: { __DEMO_DIR__: JSON.stringify(demo.replace(/\/$/, '')), __DEMO_BUNDLE__: JSON.stringify(out) },
  logLevel: 'warning',
})
await import(new URL('../.latchkey/node/server.mjs', import.meta.url).href)
