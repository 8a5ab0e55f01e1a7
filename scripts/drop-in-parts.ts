/**
 * The drop-in script's later parts. latchkey.iife.js, one classic script, holds what a sign-in
 * page needs at once; what the ESM build loads with import() only where a page needs it stays out
 * of it too, in ES module files beside it: `latchkey-settings.js` (the account settings
 * elements), `latchkey-steps.js` (the sign-in's later steps) and `latchkey-page-session.js` (the
 * session kept in the page). The script imports them as `./<part>.js`, which a classic script
 * resolves against its own URL, as it does the languages (`locales/<tag>.js`).
 *
 * A later part takes each module the drop-in already holds from the drop-in, not a copy of its
 * own: one copy of each, and of its state (the language loader and the words fetched, the
 * missing-plugin warnings said). The drop-in hands them over under a key of the page's global
 * object; a part's import of one is a module reading them from there, once (no shared module
 * exports a `let` that changes).
 *
 * Used by vite.config.ts (mode `iife`: the plugin below) and by bench/client-size.ts (the same
 * parts, measured with esbuild).
 */
import { build as esbuild, type Plugin as EsbuildPlugin } from 'esbuild'
import { readFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import type { Plugin } from 'vite'

/**
 * Each later part, and the modules it holds: the ones the ESM build loads with import(), where a
 * page needs them. The session kept in the page is one: a page a worker controls never needs it.
 */
export const laterParts = {
  'latchkey-settings': ['drop-in-settings-plugins', 'profile-element', 'identity-element', 'password-element', 'passkeys-element', 'mfa-element', 'sessions-element', 'accounts-element', 'organization-element', 'organization-switcher-element', 'sso-setup-element', 'connected-apps-element'].map((m) => `src/components/${m}.ts`),
  'latchkey-steps': ['password-forms', 'plugin-form', 'second-step'].map((m) => `src/components/${m}.ts`),
  'latchkey-page-session': ['src/client/session-engine.ts'],
}
export type PartName = keyof typeof laterParts

export const dropInEntry = 'src/components/drop-in.ts'
const partOfModule = new Map(Object.entries(laterParts).flatMap(([part, files]) => files.map((file) => [file, part as PartName])))
/** The later part holding `file` (a path from the package's root), if any. */
export const partOf = (file: string) => partOfModule.get(file)

/** Each later part's own entry, at the root: everything its modules export (their names do not overlap). */
export const partSource = (part: PartName) => laterParts[part].map((file) => `export * from './${file.replace(/\.ts$/, '.js')}'\n`).join('')

/** Where the drop-in leaves what it shares: a key of the global object, no name a page could take. */
const key = "Symbol.for('latchkey.drop-in')"

/** The module every shared one reads from: what the drop-in left, or, loaded without it (an ESM page importing a part), what this file is. */
export const handedOverId = 'latchkey-drop-in'
export const handedOverSource = `const shared = globalThis[${key}]
if (!shared) throw new Error('latchkey: this file is a part of the drop-in script, loaded by latchkey.iife.js beside it; a page with a bundler imports latchkey/components instead')
export default shared`

/** A shared module as a later part sees it: the drop-in's own. */
export function sharedSource(file: string, names: string[]): string {
  const named = names.filter((n) => n !== 'default')
  return [
    `import shared from ${JSON.stringify(handedOverId)}`,
    `const m = shared[${JSON.stringify(file)}]`,
    named.length ? `export const { ${named.join(', ')} } = m` : '',
    names.includes('default') ? 'export default m.default' : '',
  ].join('\n')
}

/** What the drop-in adds to its entry: every shared module's namespace, left where the parts read it. */
export function exposure(shared: Map<string, string[]>, root: string): string {
  const files = [...shared.keys()]
  return [
    ...files.map((file, i) => `import * as shared${i} from ${JSON.stringify(join(root, file))}`),
    `globalThis[${key}] = { ${files.map((file, i) => `${JSON.stringify(file)}: shared${i}`).join(', ')} }`,
  ].join('\n')
}

/** esbuild: the later parts' modules, imported dynamically, stay out (their files are apart). */
const laterOut: EsbuildPlugin = {
  name: 'later-parts-out',
  setup(b) {
    b.onResolve({ filter: /\.js$/ }, (args) => {
      if (args.kind !== 'dynamic-import') return
      const part = partOf(relative(b.initialOptions.absWorkingDir!, join(args.resolveDir, args.path)).replace(/\.js$/, '.ts'))
      return part && { path: `./${part}.js`, external: true }
    })
  },
}

/** esbuild, as the Vite build makes them (bench/client-size.ts): the drop-in without its later parts, sharing `shared`. */
export const esbuildDropIn = (root: string, shared: Map<string, string[]>): EsbuildPlugin => ({
  name: 'drop-in',
  setup(b) {
    laterOut.setup(b)
    b.onLoad({ filter: /components\/drop-in\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')) + '\n' + exposure(shared, root),
      loader: 'ts',
    }))
  },
})

/** esbuild: a later part's modules, the shared ones read from the drop-in. */
export const esbuildPart = (root: string, shared: Map<string, string[]>): EsbuildPlugin => ({
  name: 'drop-in-part',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^${handedOverId}$`) }, () => ({ path: handedOverId, namespace: 'drop-in' }))
    b.onResolve({ filter: /\.js$/ }, (args) => {
      const file = relative(root, join(args.resolveDir, args.path)).replace(/\.js$/, '.ts')
      return shared.has(file) ? { path: file, namespace: 'drop-in' } : undefined
    })
    b.onLoad({ filter: /.*/, namespace: 'drop-in' }, (args) => ({
      contents: args.path === handedOverId ? handedOverSource : sharedSource(args.path, shared.get(args.path)!),
      resolveDir: root,
      loader: 'js',
    }))
  },
})

const scan = async (options: Parameters<typeof esbuild>[0]) => {
  const result = await esbuild({ bundle: true, write: false, metafile: true, logLevel: 'silent', platform: 'browser', format: 'esm', outdir: '/virtual', ...options })
  return result.metafile!
}

/**
 * The modules a later part takes from the drop-in, with their exports: those of its graph the
 * drop-in holds. `root`: the package's root. A later module the drop-in imports other than with
 * import() is an error: it would be in both.
 */
export async function sharedModules(root: string): Promise<Map<string, string[]>> {
  const built = await scan({ absWorkingDir: root, entryPoints: [dropInEntry], plugins: [laterOut] })
  const held = Object.keys(built.inputs).filter((file) => partOf(file))
  if (held.length) throw new Error(`${held.join(', ')}: a later part of the drop-in (scripts/drop-in-parts.ts), imported by it other than with import(); import it with import() or take it out of laterParts`)
  const later = new Set<string>()
  for (const part of Object.keys(laterParts) as PartName[]) {
    const meta = await scan({ absWorkingDir: root, stdin: { contents: partSource(part), resolveDir: root, loader: 'ts' } })
    for (const file of Object.keys(meta.inputs)) later.add(file)
  }
  // What the drop-in holds is what its code keeps: a module it reaches only to shake away (a plugin
  // the index re-exports, the part's own) stays the part's, rather than joining the drop-in.
  const kept = Object.values(built.outputs).flatMap((o) => Object.entries(o.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([file]) => file))
  const files = [...new Set(kept)].filter((file) => later.has(file)).sort()
  // Each shared module's runtime exports (its types are gone by then).
  const meta = await scan({ absWorkingDir: root, entryPoints: files, bundle: false })
  const exports = new Map(Object.values(meta.outputs).map((o) => [o.entryPoint!, o.exports]))
  return new Map(files.map((file) => [file, exports.get(file)!]))
}

/**
 * Vite, mode `iife`: the drop-in leaves out its later parts (an import() of one of their modules
 * becomes an import() of the part's file, beside the script), shares its modules, and, once built,
 * builds each part into the same folder.
 */
export function dropInParts(): Plugin {
  let root = ''
  let outDir = ''
  let shared = new Map<string, string[]>()
  return {
    name: 'latchkey-drop-in-parts',
    // Before Vite's own resolver, which would otherwise resolve the later modules first.
    enforce: 'pre',
    configResolved(config) {
      root = config.root
      outDir = resolve(config.root, config.build.outDir)
    },
    async buildStart() {
      shared = await sharedModules(root)
    },
    async resolveId(source, importer, options) {
      if (!importer || (options as { kind?: string }).kind !== 'dynamic-import') return null
      const resolved = await this.resolve(source, importer, { skipSelf: true })
      const part = resolved && partOf(relative(root, resolved.id))
      return part ? { id: `./${part}.js`, external: true } : null
    },
    transform(code, id) {
      if (relative(root, id) !== dropInEntry) return null
      return code + '\n' + exposure(shared, root)
    },
    async closeBundle() {
      const { build } = await import('vite')
      for (const part of Object.keys(laterParts) as PartName[]) {
        // A module of no file, at the root: its imports are the part's modules.
        const entry = join(root, `${part}.part.js`)
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          publicDir: false,
          plugins: [
            {
              name: 'latchkey-drop-in-part',
              enforce: 'pre',
              async resolveId(source, importer) {
                if (source === entry) return entry
                if (source === handedOverId) return '\0' + handedOverId
                if (!importer) return null
                const resolved = await this.resolve(source, importer, { skipSelf: true })
                const file = resolved && relative(root, resolved.id)
                return file && shared.has(file) ? `\0latchkey-shared:${file}` : resolved
              },
              load(id) {
                if (id === entry) return partSource(part)
                if (id === '\0' + handedOverId) return handedOverSource
                if (id.startsWith('\0latchkey-shared:')) {
                  const file = id.slice('\0latchkey-shared:'.length)
                  return sharedSource(file, shared.get(file)!)
                }
                return null
              },
            },
          ],
          build: {
            outDir,
            emptyOutDir: false,
            target: 'es2022',
            minify: true,
            copyPublicDir: false,
            lib: { entry, formats: ['es'], fileName: () => `${part}.js` },
            // One file each, minified whole (a library build's ESM keeps its whitespace otherwise).
            rolldownOptions: { output: { codeSplitting: false, minify: true } },
          },
        })
      }
    },
  }
}
