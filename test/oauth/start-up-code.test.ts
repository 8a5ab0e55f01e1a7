/**
 * The OAuth flow and oauth4webapi load on the first sign-in, not at start-up: a credentials-only
 * server bundled for a fetch runtime (as bench/server-size.ts bundles it) carries only the light
 * parts of features/oauth in its start-up code, and an OAuth server still has the flow in a chunk.
 */
import { build, type Metafile } from 'esbuild'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')

/** The inputs of the start-up code (entry and its static imports) and of all the output. */
async function inputs(providers: string): Promise<{ startup: string[]; all: string[] }> {
  const app = `import { Latchkey } from './src/server/index.ts'
import Credentials from './src/providers/credentials.ts'
import Google from './src/providers/google.ts'
const auth = Latchkey({ secret: 'x'.repeat(32), adapter: globalThis.adapter, providers: [${providers}] })
export default { fetch: (request) => auth(request), token: auth.getAccessToken }`
  const result = await build({
    stdin: { contents: app, resolveDir: root, loader: 'js', sourcefile: 'app.js' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    outdir: join(root, '.bench-out'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: root,
  })
  const outputs: Metafile['outputs'] = result.metafile.outputs
  const imported = new Set(Object.values(outputs).flatMap((o) => o.imports.map((i) => i.path)))
  const entry = Object.keys(outputs).find((k) => outputs[k]!.entryPoint && !imported.has(k))!
  const startup = new Set([entry])
  for (const path of startup) for (const imp of outputs[path]!.imports) if (imp.kind === 'import-statement') startup.add(imp.path)
  const of = (paths: string[]) => paths.flatMap((p) => Object.keys(outputs[p]!.inputs))
  return { startup: of([...startup]), all: of(Object.keys(outputs)) }
}

const oauthCode = (list: string[]) => list.filter((input) => /features\/oauth\/|oauth4webapi/.test(input)).map((input) => input.replace(/^.*features\/oauth\//, '')).sort()

describe('OAuth code at start-up', () => {
  it('a credentials-only server starts with the light parts of features/oauth and no oauth4webapi', async () => {
    const { startup } = await inputs(`Credentials({ authorize: async () => null })`)
    expect(oauthCode(startup)).toEqual([
      'access-token-error.ts',
      'check-cookies.ts',
      'discovery-cache.ts',
      'endpoints.ts',
      'feature.ts',
      'get-access-token.ts',
      'required-fields.ts',
    ])
  }, 60_000)

  it('an OAuth server has the flow and the refresh code in chunks loaded on first use', async () => {
    const { startup, all } = await inputs(`Google({ clientId: 'id', clientSecret: 'secret' })`)
    expect(startup.some((input) => input.includes('oauth4webapi'))).toBe(false)
    expect(oauthCode(all)).toEqual(expect.arrayContaining(['start.ts', 'callback.ts', 'access-token.ts', 'access-token-call.ts']))
    expect(all.some((input) => input.includes('oauth4webapi'))).toBe(true)
  }, 60_000)
})
