/**
 * Second factors and passkeys load on first use (features/mfa, features/webauthn feature.ts): a
 * credentials-only server's start-up code holds neither otpauth, uqr, @simplewebauthn nor the
 * authenticator names' table, and only their option checks and cookie names of either folder.
 * The same build as bench/server-size.ts.
 */
import { build } from 'esbuild'
import { join } from 'node:path'
import { expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const app = `import { Latchkey } from './src/server/index.ts'
import Credentials from './src/providers/credentials.ts'
const auth = Latchkey({ secret: 'x'.repeat(32), adapter: globalThis.adapter, providers: [Credentials({ authorize: async () => null })] })
export default { fetch: (request) => auth(request) }`

/** The inputs of the start-up code (the entry and what it imports statically), with their bytes in it. */
async function startUpInputs(): Promise<Map<string, number>> {
  const result = await build({
    stdin: { contents: app, resolveDir: root, loader: 'js', sourcefile: 'app.js' },
    bundle: true, minify: true, splitting: true, format: 'esm', platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'], target: 'es2022',
    outdir: join(root, '.bench-out'), write: false, metafile: true, logLevel: 'silent', absWorkingDir: root,
  })
  const outputs = result.metafile.outputs
  const imported = new Set(Object.values(outputs).flatMap((o) => o.imports.map((i) => i.path)))
  const entry = Object.keys(outputs).find((k) => outputs[k]!.entryPoint && !imported.has(k))!
  const startup = new Set([entry])
  for (const path of startup) for (const imp of outputs[path]!.imports) if (imp.kind === 'import-statement') startup.add(imp.path)
  const inputs = new Map<string, number>()
  for (const path of startup) for (const [input, v] of Object.entries(outputs[path]!.inputs)) inputs.set(input, (inputs.get(input) ?? 0) + v.bytesInOutput)
  return inputs
}

it('keeps TOTP, QR and WebAuthn code out of a credentials-only start-up, and little of either folder', async () => {
  const inputs = await startUpInputs()
  const names = [...inputs.keys()]
  expect(names.filter((n) => /node_modules\/(otpauth|uqr|@simplewebauthn)\/|webauthn\/aaguid-names\.ts$/.test(n))).toEqual([])
  const bytesUnder = (folder: string) => names.filter((n) => n.startsWith(folder)).reduce((a, n) => a + inputs.get(n)!, 0)
  // Before: 14.3 KB of mfa and 32 KB of webauthn; now their option checks, cookie names and shells.
  expect(bytesUnder('src/server/features/mfa/')).toBeLessThan(2.5 * 1024)
  expect(bytesUnder('src/server/features/webauthn/')).toBeLessThan(2.5 * 1024)
  // Still there: what runs as an instance is built.
  expect(names).toContain('src/server/features/mfa/options.ts')
  expect(names).toContain('src/server/features/webauthn/related-origins.ts')
}, 60_000)
