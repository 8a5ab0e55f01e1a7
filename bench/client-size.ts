/**
 * Browser code size, min+gzip: latchkey's SDK core, in-page fallback, components (as a page loads
 * them: English up front, each other language a lazy chunk), drop-in script (up front, and each
 * part it loads from beside itself, scripts/drop-in-parts.ts) and worker, side by
 * side with the client SDKs of next-auth, better-auth, Supabase and Firebase,
 * all bundled the same way in this run (esbuild: bundle, minify, browser platform, ESM; react and
 * react-dom external for next-auth). Each peer is bundled as its whole public entry
 * (`export * from '<entry>'`), as ours are.
 *
 *   npx tsx bench/client-size.ts
 */
import { build, type BuildOptions } from 'esbuild'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { dropInEntry, esbuildDropIn, esbuildPart, laterParts, partSource, sharedModules, type PartName } from '../scripts/drop-in-parts.js'

const root = join(import.meta.dirname, '..')
// utf8: text in other scripts as it is, not as \u escapes (as Vite writes it).
const common: BuildOptions = { bundle: true, minify: true, charset: 'utf8', platform: 'browser', format: 'esm', target: 'es2022', write: false, logLevel: 'silent', absWorkingDir: root }

const gz = (code: Uint8Array | string) => gzipSync(code, { level: 9 }).length
const kb = (n: number) => (n / 1024).toFixed(2).padStart(7) + ' KB'

interface Row {
  name: string
  min: number
  gzip: number
  note?: string
}

/**
 * One entry; with `splitting`, the entry's static graph is measured (what a page loads up front)
 * and the lazy chunks apart: `lazyAs` names them, one row for all, or (a function of each chunk's
 * entry) a row for each.
 */
type Lazy = { name: string; note?: string }
async function measure(name: string, options: BuildOptions, lazyAs?: Lazy | ((entry: string) => Lazy)): Promise<Row[]> {
  const result = await build({ ...common, ...options, outdir: '/virtual', metafile: true })
  const files = result.outputFiles!
  if (!options.splitting) {
    const code = files.map((f) => f.contents)
    return [{ name, min: code.reduce((a, c) => a + c.length, 0), gzip: code.reduce((a, c) => a + gz(c), 0) }]
  }
  // The entry and the chunks it imports statically are what a page loads up front.
  const outputs = result.metafile!.outputs
  // Dynamically imported files are entry points too: the page's entry is the one asked for.
  const entry = Object.keys(outputs).find((k) => outputs[k].entryPoint === (options.entryPoints as string[])[0])!
  const eager = new Set<string>([entry])
  for (const path of eager) for (const imp of outputs[path].imports) if (imp.kind === 'import-statement') eager.add(imp.path)
  const byPath = new Map(files.map((f) => [relative(root, f.path), f.contents]))
  const sum = (paths: string[]) => ({ min: paths.reduce((a, p) => a + byPath.get(p)!.length, 0), gzip: gz(Buffer.concat(paths.map((p) => byPath.get(p)!))) })
  const lazy = Object.keys(outputs).filter((k) => !eager.has(k))
  const rows: Row[] = [{ name, ...sum([...eager]) }]
  const short = name.replace(/ \(.*$/, '')
  if (typeof lazyAs === 'function') for (const path of lazy) {
    const { name: what, note } = lazyAs(outputs[path].entryPoint ?? path)
    rows.push({ name: `${short}: ${what} (lazy)`, ...sum([path]), note })
  }
  else if (lazy.length && lazyAs) rows.push({ name: `${short}: ${lazyAs.name} (lazy chunk)`, ...sum(lazy), note: lazyAs.note })
  return rows
}

async function peer(name: string, specifier: string, external: string[] = []): Promise<Row[]> {
  try {
    return await measure(name, { stdin: { contents: `export * from '${specifier}'`, resolveDir: root, loader: 'js' }, external })
  } catch (e) {
    const reason = (e as { errors?: { text: string }[] }).errors?.map((x) => x.text).join('; ') ?? (e as Error).message
    console.log(`  ${name}: could not be bundled: ${reason.slice(0, 300)}`)
    return []
  }
}

const shared = await sharedModules(root)
const partNotes: Record<PartName, string> = {
  'latchkey-settings': 'the account settings elements: loaded only where a page has one',
  'latchkey-steps': 'password forms, a plugin\'s form, the second step: loaded when the sign-in first needs one',
  'latchkey-page-session': 'the session kept in the page: loaded only when no worker controls it',
}

const ours: Row[] = [
  // The core without plugins (what a bundler keeps of latchkey when the app passes none), then with every plugin of `latchkey`.
  ...(await measure('latchkey SDK core (src/client)', { entryPoints: ['bench/client-core.ts'], splitting: true }, { name: 'in-page fallback', note: 'loaded only when no worker controls the page' })),
  ...(await measure('latchkey SDK core + every plugin of latchkey (mfa, password, ...)', { entryPoints: ['src/client/index.ts'], splitting: true })),
  // As a page loads them: English up front; each other language, the password forms, a plugin's form, the second step and <latchkey-mfa> a chunk loaded when needed.
  ...(await measure('latchkey components (src/components, English)', { entryPoints: ['src/components/index.ts'], splitting: true }, (entry) => {
    const tag = /locales\/([^/]+)\//.exec(entry)?.[1]
    if (tag && entry.endsWith('profile.ts')) return { name: `language ${tag}, account settings`, note: 'loaded only when a settings element speaks it' }
    if (tag) return { name: `language ${tag}`, note: 'loaded only when an element speaks it' }
    const element = /(mfa|profile|passkeys|password|identity|sessions|accounts)-element\.ts$/.exec(entry)?.[1]
    if (element) return { name: `<latchkey-${element}>`, note: 'loaded only where a page has one' }
    if (entry.endsWith('password-forms.ts')) return { name: 'password forms', note: 'loaded only where the server has a Password provider' }
    if (entry.endsWith('plugin-form.ts')) return { name: "a plugin's form (phone)", note: 'loaded only where the server has a provider with a form' }
    if (entry.endsWith('second-step.ts')) return { name: 'the second step', note: 'loaded when a sign-in first asks for a second factor' }
    return { name: entry, note: 'shared by the lazy parts' }
  })),
  // The drop-in as the Vite build splits it (scripts/drop-in-parts.ts): what a sign-in page loads, then each part beside it that a page loads where it needs it.
  ...(await measure('latchkey drop-in script, up front (SDK + sign-in components)', { entryPoints: [dropInEntry], format: 'iife', plugins: [esbuildDropIn(root, shared)] })),
  ...(
    await Promise.all(
      (Object.keys(laterParts) as PartName[]).map((part) =>
        measure(`latchkey drop-in: ${part}.js (lazy)`, { stdin: { contents: partSource(part), resolveDir: root, loader: 'ts' }, plugins: [esbuildPart(root, shared)] }).then(([row]) => ({ ...row, note: partNotes[part] })),
      ),
    )
  ),
  ...(await measure('latchkey service worker (sw/)', { entryPoints: ['sw/latchkey-sw.ts'], format: 'iife' })),
  ...(await measure('latchkey passkey part', { entryPoints: ['src/client/passkey/index.ts'] })),
  ...(await measure('latchkey drop-in passkey script', { entryPoints: ['src/components/drop-in-passkey.ts'], format: 'iife' })),
  // Each binding's own code: the framework is the app's (external), the client is passed in.
  ...(await measure('latchkey/react (react external)', { entryPoints: ['src/bindings/react.ts'], external: ['react'] })),
  ...(await measure('latchkey/vue (vue external)', { entryPoints: ['src/bindings/vue.ts'], external: ['vue'] })),
  ...(await measure('latchkey/svelte (svelte external)', { entryPoints: ['src/bindings/svelte.ts'], external: ['svelte', 'svelte/store'] })),
]

const peers: Row[] = [
  ...(await peer('next-auth/react', 'next-auth/react', ['react', 'react-dom', 'react/jsx-runtime'])),
  ...(await peer('better-auth/client', 'better-auth/client')),
  ...(await peer('@supabase/auth-js', '@supabase/auth-js')),
  ...(await peer('firebase/auth', 'firebase/auth')),
]

const version = (pkg: string) => {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version
  } catch {
    return '?'
  }
}

const core = ours[0]
console.log('\nmin+gzip (gzip -9), esbuild --bundle --minify --platform=browser --format=esm\n')
console.log('  ' + 'bundle'.padEnd(62) + 'minified'.padStart(10) + 'min+gzip'.padStart(11) + '   vs SDK core')
for (const r of [...ours, ...peers]) {
  console.log('  ' + r.name.padEnd(62) + kb(r.min) + ' ' + kb(r.gzip) + '   ' + (r.gzip / core.gzip).toFixed(1).padStart(5) + 'x' + (r.note ? `   (${r.note})` : ''))
}
const bindings = ours.filter((r) => r.name.startsWith('latchkey/'))
const dropIn = ours.find((r) => r.name.startsWith('latchkey drop-in script, up front'))!
console.log('\n  targets: SDK core < 4 KB: ' + (core.gzip < 4096 ? 'met' : 'MISSED') + '; worker < 8 KB: ' + (ours.find((r) => r.name.includes('worker'))!.gzip < 8192 ? 'met' : 'MISSED') + '; each binding < 0.6 KB: ' + (bindings.every((r) => r.gzip < 0.6 * 1024) ? 'met' : 'MISSED') + '; drop-in up front < 20 KB: ' + (dropIn.gzip < 20 * 1024 ? 'met' : 'MISSED'))
const components = ours.filter((r) => r.name.startsWith('latchkey components'))
const [upFront, englishParts] = [components[0].gzip, components.filter((r) => !r.name.includes('language')).reduce((a, r) => a + r.gzip, 0)]
// The budget since the identifier-first sign-in with its logos (issue 44): 12,319 B then.
console.log(`  components, English, up front: ${upFront} B (target: under 13 KB): ${upFront < 13 * 1024 ? 'met' : 'MISSED'}; with every English part loaded (password forms, plugin form, second step, <latchkey-mfa>, the account settings elements): ${englishParts} B`)
console.log('\n  ratios, each peer over latchkey SDK core + in-page fallback (what a page can load):')
const pageTotal = core.gzip + (ours[1]?.name.includes('fallback') ? ours[1].gzip : 0)
for (const r of peers) console.log('    ' + r.name.padEnd(22) + (r.gzip / pageTotal).toFixed(1).padStart(6) + 'x')
console.log('\n  peer versions: ' + ['next-auth', 'better-auth', '@supabase/auth-js', 'firebase'].map((p) => `${p} ${version(p)}`).join(', '))

// The shipped files (Vite, dist/), if built.
const dist = join(root, 'dist')
const shipped = ['latchkey.js', 'latchkey-components.js', 'latchkey-passkey.js', 'latchkey-react.js', 'latchkey-vue.js', 'latchkey-svelte.js', 'latchkey.iife.js', ...Object.keys(laterParts).map((part) => `${part}.js`), 'latchkey-passkey.iife.js', 'latchkey-sw.js', 'latchkey-sw-import.js', 'latchkey-sw-module.js'].filter((f) => statSync(join(dist, f), { throwIfNoEntry: false }))
if (shipped.length) {
  const folder = (name: string) => (statSync(join(dist, name), { throwIfNoEntry: false }) ? readdirSync(join(dist, name)).map((f) => `${name}/${f}`) : [])
  const chunks = [...folder('chunks'), ...folder('locales')]
  console.log('\n  dist/ as built by Vite (ESM files are not whitespace-minified in library mode):')
  for (const f of [...shipped, ...chunks]) {
    const code = readFileSync(join(dist, f))
    console.log('    ' + f.padEnd(44) + kb(code.length) + ' ' + kb(gz(code)))
  }
}
