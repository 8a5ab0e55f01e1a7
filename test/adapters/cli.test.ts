/** bin/latchkey.ts, called in process through its exported `run`. */
import { chmod, lstat, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { run, type CliIo } from '../../bin/latchkey.js'
import { LATEST_VERSION, migrations } from '../../src/adapters/postgres/schema.js'

function capture(env: Record<string, string | undefined> = {}) {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { out: (line) => out.push(line), err: (line) => err.push(line), env }
  return { io, out, err }
}

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })))
})

describe('latchkey CLI', () => {
  test('--help prints usage and exits 0', async () => {
    const { io, out } = capture()
    expect(await run(['--help'], io)).toBe(0)
    expect(out.join('\n')).toMatch(/Usage: latchkey <command>/)
    expect(out.join('\n')).toMatch(/migrate/)
  })

  test('an unknown command is a clear error with exit code 2', async () => {
    const { io, err } = capture()
    expect(await run(['migrat'], io)).toBe(2)
    expect(err.join('\n')).toMatch(/unknown command "migrat"; expected one of: migrate/)
  })

  test('an unknown option or a missing value is a clear error', async () => {
    const a = capture()
    expect(await run(['migrate', '--databse-url', 'x'], a.io)).toBe(2)
    expect(a.err.join('\n')).toMatch(/unknown option "--databse-url"/)
    const b = capture()
    expect(await run(['migrate', '--database-url'], b.io)).toBe(2)
    expect(b.err.join('\n')).toMatch(/option --database-url expects a value/)
  })

  test('secret writes a random AUTH_SECRET into the env file, keeps the other lines, and never prints it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'latchkey-secret-'))
    folders.push(dir)
    const file = join(dir, '.env')
    await writeFile(file, 'PORT=3000')
    const first = capture()
    expect(await run(['secret', '--env-file', file], first.io)).toBe(0)
    const written = await readFile(file, 'utf8')
    const secret = /^AUTH_SECRET=([A-Za-z0-9+/]{44})$/m.exec(written)?.[1]
    expect(secret).toBeDefined()
    expect(written.startsWith('PORT=3000\n')).toBe(true)
    expect(first.out.join('\n')).toMatch(/Wrote a random AUTH_SECRET/)
    expect(first.out.join('\n')).not.toContain(secret)
    // A second run keeps it (replacing it signs everyone out); --force replaces it.
    const second = capture()
    expect(await run(['secret', '--env-file', file], second.io)).toBe(0)
    expect(await readFile(file, 'utf8')).toBe(written)
    expect(second.out.join('\n')).toMatch(/already sets AUTH_SECRET; left as it is/)
    expect(await run(['secret', '--env-file', file, '--force'], capture().io)).toBe(0)
    const forced = await readFile(file, 'utf8')
    expect(forced).not.toBe(written)
    expect(forced.match(/^AUTH_SECRET=/gm)).toHaveLength(1)
  })

  test('secret --force into a world-readable .env leaves it readable by its owner only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'latchkey-secret-'))
    folders.push(dir)
    const file = join(dir, '.env')
    await writeFile(file, 'PORT=3000\nAUTH_SECRET=old\n', { mode: 0o644 })
    await chmod(file, 0o644) // whatever the umask
    expect(await run(['secret', '--env-file', file, '--force'], capture().io)).toBe(0)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(await readFile(file, 'utf8')).toMatch(/^PORT=3000\nAUTH_SECRET=[A-Za-z0-9+/]{44}\n$/)
    // Kept as it is without --force, but the owner is told to close it.
    await chmod(file, 0o644)
    const kept = capture()
    expect(await run(['secret', '--env-file', file], kept.io)).toBe(0)
    expect(kept.err.join('\n')).toMatch(/can be read by other users of this machine; run chmod 600/)
  })

  test('secret refuses a symlinked .env with the fix, and leaves its target as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'latchkey-secret-'))
    folders.push(dir)
    const target = join(dir, 'shared.env')
    const file = join(dir, '.env')
    await writeFile(target, 'PORT=3000\n', { mode: 0o644 })
    await symlink(target, file)
    for (const args of [['secret', '--env', file], ['secret', '--env-file', file, '--force']]) {
      const { io, err } = capture()
      expect(await run(args, io)).toBe(1)
      expect(err.join('\n')).toMatch(/is a symbolic link \(to .*shared\.env\); refusing to write through it\. Pass the real file with --env, or replace the link with a file\./)
    }
    expect(await readFile(target, 'utf8')).toBe('PORT=3000\n')
    expect((await lstat(file)).isSymbolicLink()).toBe(true)
  })

  test('no command prints usage to stderr and exits 2', async () => {
    const { io, err } = capture()
    expect(await run([], io)).toBe(2)
    expect(err.join('\n')).toMatch(/Usage/)
  })

  test('migrate on the embedded database says what it did, then that there is nothing to do', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'latchkey-cli-'))
    folders.push(dir)
    const first = capture()
    expect(await run(['migrate', '--dir', dir], first.io)).toBe(0)
    expect(first.out).toEqual([`Database: ${dir}`, ...migrations.map((m) => `Applied migration ${m.version}: ${m.name}`), `Schema migrated from version 0 to ${LATEST_VERSION}.`])
    const second = capture()
    expect(await run(['migrate', `--dir=${dir}`], second.io)).toBe(0)
    expect(second.out).toEqual([`Database: ${dir}`, `Schema already at version ${LATEST_VERSION}; nothing to do.`])
  }, 120_000) // two cold starts of PGlite on disk

  test('migrate with a URL that is not PostgreSQL fails with exit code 1 and no password in the message', async () => {
    const { io, err } = capture()
    expect(await run(['migrate', '--database-url', 'mysql://u:secret@host/db'], io)).toBe(1)
    expect(err.join('\n')).toMatch(/latchkey migrate failed: .*expected a postgres:\/\//)
    expect(err.join('\n')).not.toMatch(/secret/)
  })
})

describe('latchkey doctor', () => {
  /** Writes a configuration module and answers its path. */
  async function configModule(source: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'latchkey-doctor-'))
    folders.push(dir)
    const file = join(dir, 'auth.config.mjs')
    await writeFile(file, source)
    return file
  }

  test('an unsafe configuration: each problem named with its fix, exit 1', async () => {
    const file = await configModule(`
      export const config = {
        secret: 'short-secret',
        session: { strategy: 'database' },
        adapter: { createUser() {}, getUser() {} },
        providers: [{ id: 'email', type: 'email', name: 'Email', code: false, sendVerificationRequest() {} }],
        migrateFrom: { authjs: { until: '2020-01-01T00:00:00Z' } },
      }`)
    const { io, out } = capture({})
    expect(await run(['doctor', '--config', file], io)).toBe(1)
    const text = out.join('\n')
    expect(text).toMatch(/error {3}No trusted origin: .*\n {8}fix: Set `origin` \(or AUTH_URL\) to the app's public origin/)
    expect(text).toMatch(/error {3}A secret of 12 characters is too short to sign and encrypt with; each secret must be at least 16 characters long\.\n {8}fix: .*npx latchkey secret/)
    expect(text).toMatch(/error {3}The email provider "email" has no sender.*\n {8}fix: Set `from:/)
    expect(text).toMatch(/error {3}The Auth\.js migration window ended on 2020-01-01T00:00:00\.000Z.*\n {8}fix: Remove migrateFrom\.authjs/)
    expect(text).toMatch(/error {3}The adapter lacks getSessionAndUser/)
    expect(text).toMatch(/warning The adapter has no replaceSessionToken/)
    expect(text).toMatch(/warning The emails name the app by its host: no theme\.name is set\.\n {8}fix: Set `theme: \{ name: 'Your App' \}`/)
    expect(text).not.toContain('short-secret')
    expect(text).toMatch(/\d+ error\(s\), 2 warning\(s\)\.$/)
  })

  test('a production-ready configuration: no problems, exit 0; the environment counts as the app would read it', async () => {
    const file = await configModule(`
      export default {
        origin: 'https://app.example.com',
        providers: [{ id: 'email', type: 'email', name: 'Email', from: 'App <login@example.com>', sendVerificationRequest() {} }],
        theme: { name: 'App', brandColor: '#0a7f5a' },
        migrateFrom: { authjs: { until: new Date(Date.now() + 20 * 86400000) } },
      }`)
    const { io, out } = capture({ AUTH_SECRET: 'a'.repeat(44) })
    expect(await run(['doctor', '--config', file], io)).toBe(0)
    expect(out).toEqual(['No problems found.'])
  })

  test('warnings alone exit 0: a migration window far away, rate limits off, an origin over http on a real host is an error', async () => {
    const far = await configModule(`
      export const config = { secret: '${'b'.repeat(40)}', origin: 'https://app.example.com', rateLimit: false, providers: [],
        migrateFrom: { authjs: { until: new Date(Date.now() + 400 * 86400000) } } }`)
    const a = capture()
    expect(await run(['doctor', '--config', far], a.io)).toBe(0)
    expect(a.out.join('\n')).toMatch(/warning The Auth\.js migration window runs until .* over 90 days away/)
    expect(a.out.join('\n')).toMatch(/warning Rate limits are off/)
    const http = await configModule(`export const config = { secret: '${'b'.repeat(40)}', origin: 'http://app.example.com', providers: [] }`)
    const b = capture()
    expect(await run(['doctor', '--config', http], b.io)).toBe(1)
    expect(b.out.join('\n')).toMatch(/error {3}The origin http:\/\/app\.example\.com is not https/)
  })

  test('warns about requireVerifiedEmail: false, breached: false and trusted devices over 90 days, each with its fix', async () => {
    const file = await configModule(`
      export const config = { secret: '${'b'.repeat(40)}', origin: 'https://app.example.com', adapter: undefined,
        providers: [{ id: 'password', type: 'credentials', kind: 'password', options: { requireVerifiedEmail: false, breached: false } }],
        mfa: { trustDevices: 180 * 86400 } }`)
    const { io, out } = capture()
    await run(['doctor', '--config', file], io)
    const text = out.join('\n')
    expect(text).toMatch(/warning The password provider "password" signs in unconfirmed addresses \(requireVerifiedEmail: false\): anyone can sign up with someone else's address.*\n {8}fix: Remove `requireVerifiedEmail: false`/)
    expect(text).toMatch(/warning The password provider "password" accepts passwords known from breaches \(breached: false\).*\n {8}fix: Remove `breached: false`/)
    expect(text).toMatch(/warning A trusted device skips the second factor for 180 days \(mfa\.trustDevices\).*\n {8}fix: Set mfa\.trustDevices to 90 days/)
    expect(text).toMatch(/warning The emails name the app by its host \(app\.example\.com\): no theme\.name is set/)
    // The defaults, and 90 days exactly, say nothing of these.
    const fine = await configModule(`
      export const config = { secret: '${'b'.repeat(40)}', origin: 'https://app.example.com',
        providers: [{ id: 'password', type: 'credentials', kind: 'password', options: {} }], mfa: { trustDevices: 90 * 86400 } }`)
    const quiet = capture()
    await run(['doctor', '--config', fine], quiet.io)
    expect(quiet.out.join('\n')).not.toMatch(/requireVerifiedEmail|breached|trusted device/)
    // A theme that cannot start is an error with its fix.
    const bad = await configModule(`export const config = { secret: '${'b'.repeat(40)}', origin: 'https://app.example.com', providers: [], theme: { logo: 'javascript:alert(1)' } }`)
    const refused = capture()
    expect(await run(['doctor', '--config', bad], refused.io)).toBe(1)
    expect(refused.out.join('\n')).toMatch(/error {3}The configuration does not start: latchkey: theme\.logo must be an https URL/)
  })

  test('no module, a module that is no configuration, or one that only looks like a Latchkey handler: a clear error', async () => {
    const none = capture()
    expect(await run(['doctor'], none.io)).toBe(2)
    expect(none.err.join('\n')).toMatch(/expected a module: the app's server module \(latchkey doctor \.\/server\.js\), or one exporting the configuration/)
    const nothing = /created no Latchkey instance while it loaded, and exports no configuration \(`export const config` or `export default`/
    const empty = await configModule('export const other = 1')
    const b = capture()
    expect(await run(['doctor', empty], b.io)).toBe(1)
    expect(b.err.join('\n')).toMatch(nothing)
    const handler = await configModule('const auth = async () => new Response(); auth.getSession = async () => null; export default auth')
    const c = capture()
    expect(await run(['doctor', '--config', handler], c.io)).toBe(1)
    expect(c.err.join('\n')).toMatch(nothing)
    const missing = capture()
    expect(await run(['doctor', join(tmpdir(), 'no-such-server.mjs')], missing.io)).toBe(1)
    expect(missing.err.join('\n')).toMatch(/could not load .*no-such-server\.mjs: there is no file/)
  })
})
