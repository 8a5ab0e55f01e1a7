/**
 * Server code size, min+gzip: an app's fetch handler on `latchkey/server` (esbuild: bundle,
 * minify, neutral platform with the worker conditions, ESM, code splitting), once with a
 * credentials-only configuration, once with passkeys, and once with every built-in plugin in use.
 * "At start-up" is the entry and what it imports statically; "in all" adds the chunks loaded on
 * the first request that needs them. Says whether the credentials-only start-up code holds
 * WebAuthn code (@simplewebauthn/server, its dependencies, or latchkey's ceremonies), TOTP
 * (otpauth) or QR code (uqr).
 *
 *   npx tsx bench/server-size.ts
 */
import { build, type Metafile } from 'esbuild'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'

const root = join(import.meta.dirname, '..')
const kb = (n: number) => (n / 1024).toFixed(1).padStart(7) + ' KB'

/** An app's worker: one Latchkey instance as the default export's fetch. */
function app(providers: string, more = ''): string {
  return `import { Latchkey } from './src/server/index.ts'
import Credentials from './src/providers/credentials.ts'
import Passkey from './src/providers/passkey.ts'
import Password from './src/providers/password.ts'
import Google from './src/providers/google.ts'
import Email from './src/providers/email.ts'
const auth = Latchkey({ secret: 'x'.repeat(32), adapter: globalThis.adapter, providers: [${providers}]${more} })
export default { fetch: (request) => auth(request) }`
}

/** Inputs that are WebAuthn code: the library and its dependencies, and latchkey's ceremonies. */
const webauthnCode = /node_modules\/(otpauth|uqr)\/|node_modules\/(@simplewebauthn|@peculiar|@levischuck|@hexagon|asn1js|pvtsutils|pvutils|reflect-metadata|tslib)\/|features\/webauthn\/(authenticate|register|callback|options-route)\.ts$/

export interface ServerSize {
  startup: { min: number; gzip: number }
  all: { min: number; gzip: number }
  /** WebAuthn inputs in the start-up code. */
  webauthnAtStartup: string[]
  /** Pages' catalogues (src/locales/<tag>/pages.ts) in the start-up code: English alone. */
  pagesAtStartup: string[]
  /** Every input of the start-up code (source files and packages' files), with its bytes there. */
  startupInputs: Map<string, number>
  /** Every input of the whole output, start-up and split-off chunks. */
  allInputs: string[]
}

export async function measure(providers: string, more = ''): Promise<ServerSize> {
  const result = await build({
    stdin: { contents: app(providers, more), resolveDir: root, loader: 'js', sourcefile: 'app.js' },
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    target: 'es2022',
    outdir: join(root, '.bench-out'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: root,
  })
  const outputs: Metafile['outputs'] = result.metafile.outputs
  // The app itself: a dynamically imported module is an entry point too, but others import it.
  const imported = new Set(Object.values(outputs).flatMap((o) => o.imports.map((i) => i.path)))
  const entry = Object.keys(outputs).find((k) => outputs[k]!.entryPoint && !imported.has(k))!
  const startup = new Set([entry])
  for (const path of startup) for (const imp of outputs[path]!.imports) if (imp.kind === 'import-statement') startup.add(imp.path)
  const byPath = new Map(result.outputFiles.map((f) => [relative(root, f.path), f.contents]))
  const size = (paths: string[]) => ({
    min: paths.reduce((a, p) => a + byPath.get(p)!.length, 0),
    gzip: gzipSync(Buffer.concat(paths.map((p) => byPath.get(p)!)), { level: 9 }).length,
  })
  const webauthnAtStartup = [...startup].flatMap((p) => Object.keys(outputs[p]!.inputs)).filter((input) => webauthnCode.test(input))
  const pagesAtStartup = [...startup].flatMap((p) => Object.keys(outputs[p]!.inputs)).filter((input) => /src\/locales\/[^/]+\/pages\.ts$/.test(input))
  const startupInputs = new Map<string, number>()
  for (const path of startup) for (const [input, { bytesInOutput }] of Object.entries(outputs[path]!.inputs)) startupInputs.set(input, (startupInputs.get(input) ?? 0) + bytesInOutput)
  const allInputs = [...new Set(Object.values(outputs).flatMap((o) => Object.keys(o.inputs)))]
  return { startup: size([...startup]), all: size([...byPath.keys()].filter((p) => p.endsWith('.js'))), webauthnAtStartup, pagesAtStartup, startupInputs, allInputs }
}

export async function run(): Promise<void> {
  const credentials = await measure(`Credentials({ authorize: async () => null })`)
  const passkeys = await measure(`Credentials({ authorize: async () => null }), Passkey()`)
  const every = await measure(
    `Credentials({ authorize: async () => null }), Passkey(), Password({ sendEmail: async () => {} }), Google, Email({ sendVerificationRequest: async () => {} })`,
    `, mfa: true, session: { strategy: 'database', deviceBound: true }, migrateFrom: { authjs: { until: '2027-01-01' } }`,
  )
  console.log('\nlatchkey/server for a fetch runtime: esbuild --bundle --minify --splitting --platform=neutral --format=esm, gzip -9\n')
  console.log('  ' + 'configuration'.padEnd(34) + 'at start-up (min, gzip)'.padStart(26) + 'in all (min, gzip)'.padStart(24))
  for (const [name, s] of [['credentials only', credentials], ['credentials and passkeys', passkeys], ['every built-in plugin', every]] as const) {
    console.log('  ' + name.padEnd(34) + kb(s.startup.min) + ' ' + kb(s.startup.gzip) + '      ' + kb(s.all.min) + ' ' + kb(s.all.gzip))
  }
  const found = credentials.webauthnAtStartup
  console.log(`\n  credentials-only start-up code holds WebAuthn, TOTP or QR code: ${found.length ? `YES (${found.length} modules, e.g. ${found[0]})` : 'no'}`)
  console.log(`  credentials-only start-up code holds the pages of: ${credentials.pagesAtStartup.map((p) => p.split('/').at(-2)).join(', ')}`)
}

if (import.meta.url === `file://${process.argv[1]}`) await run()
