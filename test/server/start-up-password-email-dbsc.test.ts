/**
 * The password, email, dbsc and Auth.js-migration plugins keep their sign-in steps, routes and
 * session reading out of a credentials-only server's start-up code: a bundler splits them off
 * (lazy imports in their feature.ts), so they load only where an instance uses them.
 */
import { build } from 'esbuild'
import { describe, expect, test } from 'vitest'

const root = new URL('../..', import.meta.url).pathname
const app = `import { Latchkey } from './src/server/index.ts'
import Credentials from './src/providers/credentials.ts'
const auth = Latchkey({ secret: 'x'.repeat(32), providers: [Credentials({ authorize: async () => null })] })
export default { fetch: (request) => auth(request) }`

/** The modules of the start-up code (the entry and what it imports statically), and of all the output. */
async function bundled(): Promise<{ startUp: Set<string>; all: Set<string> }> {
  const result = await build({
    stdin: { contents: app, resolveDir: root, loader: 'js', sourcefile: 'app.js' },
    bundle: true, minify: true, splitting: true, format: 'esm', platform: 'neutral', conditions: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'],
    target: 'es2022', outdir: root + '.start-up-test-out', write: false, metafile: true, logLevel: 'silent', absWorkingDir: root,
  })
  const outputs = result.metafile.outputs
  const imported = new Set(Object.values(outputs).flatMap((o) => o.imports.map((i) => i.path)))
  const entry = Object.keys(outputs).find((k) => outputs[k]!.entryPoint && !imported.has(k))!
  const chunks = new Set([entry])
  for (const chunk of chunks) for (const i of outputs[chunk]!.imports) if (i.kind === 'import-statement') chunks.add(i.path)
  const inputsOf = (names: Iterable<string>) => new Set([...names].flatMap((name) => Object.keys(outputs[name]!.inputs)))
  return { startUp: inputsOf(chunks), all: inputsOf(Object.keys(outputs)) }
}

const loadedOnUse = [
  'src/server/features/password/routes.ts',
  'src/server/features/password/sign-in.ts',
  'src/server/features/password/hash.ts',
  'src/server/features/password/address-proven.ts',
  'src/server/features/email/sign-in.ts',
  'src/server/features/email/link.ts',
  'src/server/features/email/code.ts',
  'src/server/features/dbsc/routes.ts',
  'src/server/features/dbsc/proof.ts',
  'src/server/features/dbsc/registration.ts',
  'src/server/features/authjs-migration/sessions.ts',
  'src/server/features/authjs-migration/jwt.ts',
  'src/server/features/authjs-migration/database.ts',
]

describe('a credentials-only server start-up code', () => {
  test('holds no sign-in step, route or session reading of password, email, dbsc or the Auth.js migration; the bundle still has them, split off', async () => {
    const { startUp, all } = await bundled()
    expect(loadedOnUse.filter((file) => startUp.has(file))).toEqual([])
    expect(loadedOnUse.filter((file) => !all.has(file))).toEqual([])
    // What start-up needs stays: the option checks and the bound cookie's check on the session read.
    expect(startUp.has('src/server/features/password/options.ts')).toBe(true)
    expect(startUp.has('src/server/features/dbsc/bound-cookie.ts')).toBe(true)
  }, 60_000)
})
