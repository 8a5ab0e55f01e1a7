/**
 * The package as npm installs it: a tarball from `npm pack`, installed into a new project, its
 * bin run through `npx` (so through node_modules/.bin's symlink) and its entries imported by name.
 */
import { existsSync } from 'node:fs'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { packageProblems } from '../../scripts/check-package.js'
import { filesUnder, installPacked, repoRoot, type PackedProject } from '../support/packed.js'

let app: PackedProject
/** Optional peers npm installed along with latchkey (none should be). */
let installedUnasked: string[]
beforeAll(async () => {
  app = await installPacked()
  installedUnasked = optionalPeers.filter((name) => existsSync(join(app.dir, 'node_modules', name)))
}, 600_000)
afterAll(() => app?.remove())

const npx = (...args: string[]) => app.run('npx', ['--no', '--', 'latchkey', ...args])

/** The packages some entries load at run time, which the app installs when it uses them. */
const optionalPeers = ['@electric-sql/pglite', 'pg', 'postgres', 'ioredis', 'nodemailer', 'react', 'vue', 'svelte', 'vitest']

describe('npx latchkey', () => {
  test('--help prints the usage', async () => {
    const { code, stdout } = await npx('--help')
    expect(stdout).toMatch(/Usage: latchkey <command>/)
    expect(code).toBe(0)
  })

  test('migrate without @electric-sql/pglite says what to install, exit code 1', async () => {
    const { code, stderr } = await npx('migrate', '--dir', 'db')
    expect(stderr).toMatch(/latchkey migrate failed: .*npm install @electric-sql\/pglite/)
    expect(code).toBe(1)
  })

  test('migrate creates the embedded database once @electric-sql/pglite is installed', async () => {
    await app.link('@electric-sql/pglite')
    const first = await npx('migrate', '--dir', 'db')
    expect(first.stdout).toMatch(/^Database: db\nApplied migration 1: .*Schema migrated from version 0 to \d+\.\n$/s)
    expect(first.code).toBe(0)
    const second = await npx('migrate', '--dir', 'db')
    expect(second.stdout).toMatch(/Schema already at version \d+; nothing to do\./)
  }, 120_000)
})

describe('public entries', () => {
  test('latchkey/server exports the rate-limit stores the README names', async () => {
    const script = `import * as server from 'latchkey/server'
      console.log(JSON.stringify(['memoryRateLimitStore', 'postgresRateLimitStore', 'redisRateLimitStore'].map((name) => typeof server[name])))`
    const { code, stdout, stderr } = await app.run(process.execPath, ['--input-type=module', '-e', script])
    expect(stderr).toBe('')
    expect(JSON.parse(stdout)).toEqual(['function', 'function', 'function'])
    expect(code).toBe(0)
  })
})

describe('latchkey/server is Web-only, latchkey/node holds the node binding', () => {
  /**
   * tsc on one file of the app, checking the package's .d.ts too (`skipLibCheck: false`); by
   * default with no ambient types at all (no @types/node) and the DOM library.
   */
  async function typecheck(name: string, code: string, env: { lib?: string[]; types?: string[] } = {}): Promise<string[]> {
    await writeFile(join(app.dir, `${name}.ts`), code)
    const { lib = ['ES2023', 'DOM', 'DOM.Iterable'], types = [] } = env
    const compilerOptions = { module: 'preserve', moduleResolution: 'bundler', target: 'ES2022', lib, types, strict: true, noEmit: true, skipLibCheck: false }
    await writeFile(join(app.dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: [`${name}.ts`] }))
    const { stdout } = await app.run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', `tsconfig.${name}.json`, '--pretty', 'false'])
    return stdout.split('\n').filter((line) => /error TS/.test(line))
  }

  test('an app importing latchkey/server type-checks without @types/node', async () => {
    const errors = await typecheck(
      'web-app',
      `import { Latchkey, withSession, type Session } from 'latchkey/server'
      import Credentials from 'latchkey/providers/credentials'
      const auth = Latchkey({ secret: 'x'.repeat(32), providers: [Credentials({ authorize: async () => null })] })
      const me = withSession(auth, (_request, session: Session) => Response.json(session.user))
      export default { fetch: (request: Request) => (new URL(request.url).pathname === '/me' ? me(request) : auth(request)) }
      export const read = (request: Request, headers: Headers) => auth.getSession(request, headers)`,
    )
    expect(errors).toEqual([])
  }, 60_000)

  test('the same check finds what needs @types/node: latchkey/node does', async () => {
    const errors = await typecheck('node-app', `import { toNodeHandler } from 'latchkey/node'\nexport const bind = toNodeHandler`)
    expect(errors.some((e) => /Cannot find module 'node:http'/.test(e))).toBe(true)
  }, 60_000)

  test('every server entry type-checks with the ES library alone: no DOM types (CryptoKey, JsonWebKey)', async () => {
    // A Node server's tsconfig: lib ES2023, the runtime's own types (Request and Response come from
    // @types/node); the nodemailer provider's types need the package an app using it installs.
    await app.link('@types/node', 'nodemailer', '@types/nodemailer')
    const providers = (await readdir(join(app.dir, 'node_modules/latchkey/dist/src/providers'))).filter((file) => file.endsWith('.d.ts')).map((file) => file.slice(0, -5))
    expect(providers).toContain('github')
    const imports = ['latchkey/server', 'latchkey/node', 'latchkey/adapters/memory', 'latchkey/adapters/postgres', ...providers.map((id) => `latchkey/providers/${id}`)]
    const code = `${imports.map((entry, i) => `import * as entry${i} from '${entry}'`).join('\n')}
      export const entries = [${imports.map((_, i) => `entry${i}`).join(', ')}]
      export const key: NonNullable<import('latchkey/server').AdapterSession['deviceBinding']>['jwk'] = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }`
    expect(await typecheck('es-only', code, { lib: ['ES2023'], types: ['node'] })).toEqual([])
  }, 120_000)

  for (const platform of ['browser', 'neutral'] as const) {
    test(`esbuild bundles latchkey/server for the ${platform} platform, with no node: import`, async () => {
      const result = await build({
        stdin: { contents: `export * from 'latchkey/server'`, resolveDir: app.dir, loader: 'js' },
        absWorkingDir: app.dir,
        bundle: true,
        write: false,
        format: 'esm',
        platform,
        ...(platform === 'neutral' ? { mainFields: ['module', 'main'], conditions: ['worker', 'browser'] } : {}),
        metafile: true,
        logLevel: 'silent',
      })
      const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path))
      expect(imports.filter((path) => path.startsWith('node:'))).toEqual([])
      expect(Object.keys(result.metafile.inputs).some((path) => path.includes('node_modules/latchkey/dist/src/server/latchkey.js'))).toBe(true)
      expect(result.outputFiles[0]!.text).not.toMatch(/\bfrom\s*["']node:|\bimport\(\s*["']node:|require\(\s*["']node:/)
    }, 60_000)
  }

  test('latchkey/node exports the binding and the node forms; latchkey/server has none of them', async () => {
    const script = `import * as node from 'latchkey/node'
      import * as server from 'latchkey/server'
      const names = ['toNodeHandler', 'toRequest', 'getSession', 'requireSession', 'requireFreshSession', 'withSession']
      console.log(JSON.stringify([names.map((name) => typeof node[name]), ['toNodeHandler', 'toRequest', 'requireSession', 'requireFreshSession'].map((name) => typeof server[name])]))`
    const { code, stdout, stderr } = await app.run(process.execPath, ['--input-type=module', '-e', script])
    expect(stderr).toBe('')
    expect(JSON.parse(stdout)).toEqual([Array(6).fill('function'), Array(4).fill('undefined')])
    expect(code).toBe(0)
  })
})

describe('what the tarball holds', () => {
  test('every exports target, the bin and what they import, and no test, source map or TypeScript source', async () => {
    const root = join(app.dir, 'node_modules/latchkey')
    const files = await filesUnder(root)
    expect(files).toContain('dist/src/server/index.js')
    expect(await packageProblems(root, files)).toEqual([])
  })
})

describe('optional peer dependencies', () => {
  test('each is declared optional, and npm installs none of them unasked', async () => {
    const manifest = JSON.parse(await readFile(join(app.dir, 'node_modules/latchkey/package.json'), 'utf8'))
    for (const name of optionalPeers) {
      expect(manifest.peerDependencies?.[name], name).toMatch(/\d/)
      expect(manifest.peerDependenciesMeta?.[name], name).toEqual({ optional: true })
      expect(manifest.dependencies?.[name], name).toBeUndefined()
    }
    expect(installedUnasked).toEqual([])
  })

  test('the README names each where it is needed, with its install command', async () => {
    const readme = await readFile(join(app.dir, 'node_modules/latchkey/README.md'), 'utf8')
    expect(optionalPeers.filter((name) => !readme.includes(`npm install ${name}`))).toEqual([])
  })
})
