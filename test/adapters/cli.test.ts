/** bin/latchkey.ts, called in process through its exported `run`. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
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
