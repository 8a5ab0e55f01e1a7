/** Builds an example under examples/ (`<name>-vite`) with Vite, as its app would, for the browser tests. */
import { join } from 'node:path'

const dist = join(import.meta.dirname, '../../dist')
const examples = join(import.meta.dirname, '../../examples')

/** The framework and the binding bundled; the SDK and components left as the server's own /latchkey.js files (with their lazy chunks). */
export async function buildApp(name: string): Promise<string> {
  const { build } = await import('vite')
  const plugins = name === 'svelte' ? [(await import('@sveltejs/vite-plugin-svelte')).svelte()] : []
  const nodeEnv = process.env.NODE_ENV
  const out = await build({
    root: join(examples, `${name}-vite`),
    configFile: false,
    logLevel: 'warn',
    plugins,
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

/** The page an example mounts on. */
export const appPage = (name: string) => `<!doctype html><meta charset="utf-8"><div id="root"></div><script type="module" src="/app-${name}.js"></script>`
