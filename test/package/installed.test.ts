/**
 * The package as npm installs it: a tarball from `npm pack`, installed into a new project, its
 * bin run through `npx` (so through node_modules/.bin's symlink) and its entries imported by name.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { installPacked, type PackedProject } from '../support/packed.js'

let app: PackedProject
/** Optional peers npm installed along with latchkey (none should be). */
let installedUnasked: string[]
beforeAll(async () => {
  app = await installPacked()
  installedUnasked = optionalPeers.filter((name) => existsSync(join(app.dir, 'node_modules', name)))
}, 240_000)
afterAll(() => app?.remove())

const npx = (...args: string[]) => app.run('npx', ['--no', '--', 'latchkey', ...args])

/** The packages some entries load at run time, which the app installs when it uses them. */
const optionalPeers = ['@electric-sql/pglite', 'pg', 'postgres', 'ioredis', 'nodemailer', 'react', 'vue', 'svelte']

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
