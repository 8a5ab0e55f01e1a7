/**
 * scripts/check-package.ts, which .ci/run runs after `npm publish --dry-run`: on a small package
 * made here, it passes a whole one and names each way a broken one is broken.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { packageProblems } from '../../scripts/check-package.js'

let root: string
const manifest = {
  name: 'tiny',
  bin: { tiny: 'dist/bin/tiny.js' },
  exports: {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './providers/*': { types: './dist/providers/*.d.ts', default: './dist/providers/*.js' },
    './worker.js': './dist/worker.js',
  },
}
const whole: Record<string, string> = {
  'package.json': JSON.stringify(manifest),
  'README.md': '# tiny',
  'CHANGELOG.md': '# Changelog',
  'dist/bin/tiny.js': `import { main } from '../index.js'\nmain()`,
  'dist/index.js': `import{a as b}from"./chunks/a.js";export const main=()=>import("./chunks/lazy.js");new URL("./worker.js",import.meta.url)`,
  'dist/index.d.ts': `export declare function main(): Promise<unknown>\nexport type { A } from './types.js'`,
  'dist/types.d.ts': 'export type A = 1',
  'dist/chunks/a.js': 'export const a = 1',
  'dist/chunks/lazy.js': 'export default 1',
  'dist/providers/github.js': `export { a as default } from '../chunks/a.js'`,
  'dist/providers/github.d.ts': 'export default 1',
  'dist/worker.js': 'self.onmessage = () => {}',
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'latchkey-check-package-'))
  for (const [file, text] of Object.entries(whole)) {
    await mkdir(dirname(join(root, file)), { recursive: true })
    await writeFile(join(root, file), text)
  }
})
afterAll(() => rm(root, { recursive: true, force: true }))

const without = (...names: string[]) => Object.keys(whole).filter((file) => !names.includes(file))

describe('packageProblems', () => {
  test('a whole package has none', async () => {
    expect(await packageProblems(root, Object.keys(whole))).toEqual([])
  })

  test('a missing entry file, types file or bin is named with its exports key', async () => {
    expect(await packageProblems(root, without('dist/index.js', 'dist/providers/github.d.ts', 'dist/bin/tiny.js'))).toEqual([
      'exports["."] points at ./dist/index.js, which the package does not contain (run npm run build, or add it to "files")',
      'exports["./providers/*"] points at ./dist/providers/*.d.ts, which the package does not contain (run npm run build, or add it to "files")',
      'bin["tiny"] points at dist/bin/tiny.js, which the package does not contain',
    ])
  })

  test('a file an import, a lazy import, a type re-export or new URL(…, import.meta.url) needs', async () => {
    const problems = await packageProblems(root, without('dist/chunks/lazy.js', 'dist/types.d.ts', 'dist/worker.js', 'dist/chunks/a.js'))
    expect(problems).toEqual(
      expect.arrayContaining([
        'dist/index.js refers to ./chunks/lazy.js, which the package does not contain',
        'dist/index.js refers to ./chunks/a.js, which the package does not contain',
        'dist/index.js refers to ./worker.js, which the package does not contain',
        'dist/index.d.ts refers to ./types.js, which the package does not contain',
        'dist/providers/github.js refers to ../chunks/a.js, which the package does not contain',
      ]),
    )
  })

  test('README.md and CHANGELOG.md must ship; tests, source maps and sources must not', async () => {
    const problems = await packageProblems(root, [...without('CHANGELOG.md'), 'dist/index.js.map', 'test/a.test.ts', 'src/index.ts'])
    expect(problems).toEqual([
      'CHANGELOG.md is not in the package; add it to "files"',
      'dist/index.js.map should not ship (a test, a source map or a TypeScript source): narrow "files"',
      'test/a.test.ts should not ship (a test, a source map or a TypeScript source): narrow "files"',
      'src/index.ts should not ship (a test, a source map or a TypeScript source): narrow "files"',
    ])
  })
})
