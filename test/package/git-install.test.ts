/**
 * Installing from a git URL, as the README's Install section says: dist is not committed, so npm
 * clones the repository, installs latchkey's dev dependencies in the clone and runs its `prepare`
 * (the build), then installs what `npm pack` of the clone holds. The app approves the URL in
 * `allowScripts`, and installs with `--strict-allow-scripts`, so a script npm would only warn about
 * (latchkey's, or one of its dev dependencies' in the clone) fails the install here.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { packageProblems } from '../../scripts/check-package.js'
import { filesUnder, installFromGit, repoRoot, type PackedProject } from '../support/packed.js'

let app: PackedProject
// A clone, every dev dependency from npm's cache and a build: about a minute alone, more on a busy machine.
beforeAll(async () => {
  app = await installFromGit()
}, 600_000)
afterAll(() => app?.remove())

describe('npm install git+file://…/latchkey.git', () => {
  test('installs the built package: every exports target and the bin are there', async () => {
    const root = join(app.dir, 'node_modules/latchkey')
    const files = await filesUnder(root)
    expect(files).toContain('dist/latchkey.js')
    expect(await packageProblems(root, files)).toEqual([])
    expect(app.installLog).not.toMatch(/not yet covered by allowScripts/)
  })

  test('latchkey/server imports and answers a request', async () => {
    const script = `import { Latchkey } from 'latchkey/server'
      import Credentials from 'latchkey/providers/credentials'
      const auth = Latchkey({ secret: 'x'.repeat(32), providers: [Credentials({ authorize: async () => null })] })
      const response = await auth(new Request('http://localhost/auth/providers'))
      console.log(JSON.stringify([response.status, Object.keys(await response.json())]))`
    const { code, stdout, stderr } = await app.run(process.execPath, ['--input-type=module', '-e', script])
    expect(stderr).toBe('')
    expect(JSON.parse(stdout)).toEqual([200, ['credentials']])
    expect(code).toBe(0)
  })

  test('npx latchkey --help prints the usage', async () => {
    const { code, stdout } = await app.run('npx', ['--no', '--', 'latchkey', '--help'])
    expect(stdout).toMatch(/^Usage: latchkey <command>/)
    expect(code).toBe(0)
  })

  test("the README's Install section gives this command and this allowScripts entry", async () => {
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8')
    const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('\n## ', readme.indexOf('## Install') + 1))
    expect(install).toMatch(/npm install git\+https:\/\/\S+\.git/)
    expect(install).toMatch(/"allowScripts": \{ "git\+https:\/\/\S+\.git": true \}/)
    expect(install).toMatch(/npm install \.\/latchkey-\d+\.\d+\.\d+\.tgz/)
  })
})
