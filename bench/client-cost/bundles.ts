/**
 * The pages' scripts, bundled once per run with esbuild as an app's bundler would (ESM, minified,
 * code splitting, `process.env` defined as Next.js's bundler does), served from memory under
 * `/c/<client>/`. Also each client's session JavaScript, min+gzip: what its page loads up front
 * with React and ReactDOM left out (they are the app's framework, not the session's), and the
 * chunks it loads later apart.
 */
import { build, type BuildOptions, type Metafile } from 'esbuild'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'

export type ClientPage = 'latchkey' | 'next-auth' | 'better-auth'
const pages: ClientPage[] = ['latchkey', 'next-auth', 'better-auth']

export interface Bundles {
  /** Served path to code. */
  files: Map<string, Uint8Array>
  /** Each page's entry script, and the chunks it imports statically (preloaded, as Vite's HTML does). */
  entries: Map<ClientPage, PageScripts>
}

export interface PageScripts {
  entry: string
  preload: string[]
}

export interface SessionBytes {
  /** min+gzip of what the page loads up front. */
  eager: number
  /** min+gzip of each chunk loaded only on some paths, by file name (latchkey's page engine). */
  lazy: Record<string, number>
}

const root = join(import.meta.dirname, '../..')
const common: BuildOptions = {
  bundle: true,
  minify: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  write: false,
  metafile: true,
  logLevel: 'silent',
  absWorkingDir: root,
  define: { 'process.env.NODE_ENV': '"production"', 'process.env': '{}' },
}
const entry = (page: ClientPage) => join(import.meta.dirname, 'pages', `${page}.ts`)

export async function buildPages(): Promise<Bundles> {
  const files = new Map<string, Uint8Array>()
  const entries = new Map<ClientPage, PageScripts>()
  for (const page of pages) {
    const outdir = join(root, 'c', page)
    const result = await build({ ...common, entryPoints: [entry(page)], outdir, entryNames: '[name]-[hash]', chunkNames: '[name]-[hash]' })
    for (const file of result.outputFiles!) files.set('/' + relative(root, file.path), file.contents)
    const outputs = result.metafile!.outputs
    const main = Object.keys(outputs).find((k) => outputs[k].entryPoint)!
    entries.set(page, { entry: '/' + main, preload: [...staticGraph(outputs, main)].filter((k) => k !== main).map((k) => '/' + k) })
  }
  return { files, entries }
}

/** An output and every output it imports statically: what a page loads up front. */
function staticGraph(outputs: Metafile['outputs'], main: string): Set<string> {
  const graph = new Set([main])
  for (const path of graph) for (const imp of outputs[path].imports) if (imp.kind === 'import-statement' && !imp.external) graph.add(imp.path)
  return graph
}

const gz = (code: Uint8Array) => gzipSync(code, { level: 9 }).length

/** The page's own script with the framework external: the session's bytes (plus a few lines of view). */
export async function sessionBytes(page: ClientPage): Promise<SessionBytes> {
  const result = await build({ ...common, entryPoints: [entry(page)], outdir: join(root, 'size'), external: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'] })
  const outputs: Metafile['outputs'] = result.metafile!.outputs
  const eager = staticGraph(outputs, Object.keys(outputs).find((k) => outputs[k].entryPoint)!)
  const byPath = new Map(result.outputFiles!.map((f) => [relative(root, f.path), f.contents]))
  const sum = (paths: string[]) => (paths.length ? gz(Buffer.concat(paths.map((p) => byPath.get(p)!))) : 0)
  const lazy: Record<string, number> = {}
  for (const k of Object.keys(outputs)) if (!eager.has(k)) lazy[k.split('/').pop()!] = sum([k])
  return { eager: sum([...eager]), lazy }
}
