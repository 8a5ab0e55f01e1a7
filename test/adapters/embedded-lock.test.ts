/**
 * The embedded database's folder lock: one process at a time on a PGlite folder, the holder named
 * in the refusal, a dead holder's lock taken over, and `latchkey migrate` refused while a server
 * process holds the folder.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, test } from 'vitest'
import { run, type CliIo } from '../../bin/latchkey.js'
import { openEmbedded } from '../../src/adapters/postgres/index.js'
import { LOCK_FILE } from '../../src/adapters/postgres/embedded-lock.js'

const folders: string[] = []
const children: ChildProcess[] = []
afterAll(async () => {
  for (const child of children) child.kill()
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })))
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-lock-'))
  folders.push(dir)
  return dir
}

/** A pid no process has: spawn one, wait for it to end. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''])
  await new Promise((resolve) => child.once('exit', resolve))
  return child.pid!
}

describe('openEmbedded holds a lock on its folder', () => {
  test('a second open of the folder is refused, naming this process; after close it opens again', async () => {
    const dir = await tempDir()
    const first = await openEmbedded(dir)
    const lock = JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))
    expect(lock.pid).toBe(process.pid)
    const refused = await openEmbedded(dir).catch((error: Error & { code?: string }) => error)
    expect(refused).toBeInstanceOf(Error)
    expect((refused as { code?: string }).code).toBe('DatabaseLocked')
    expect((refused as Error).message).toContain(`The embedded database in ${dir} is in use by process ${process.pid} (`)
    expect((refused as Error).message).toContain(`since ${lock.since}`)
    expect((refused as Error).message).toMatch(/stop that process, or run "latchkey migrate" while the server is stopped/)
    await first.close()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
    const again = await openEmbedded(dir)
    expect(again.migration.applied).toEqual([])
    await again.close()
  }, 120_000)

  test("a dead process's lock is taken over", async () => {
    const dir = await tempDir()
    const pid = await deadPid()
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid, command: 'node crashed.js', since: '2020-01-01T00:00:00.000Z', token: 'old' }))
    const db = await openEmbedded(dir)
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid)
    await db.close()
  }, 120_000)
})

describe('latchkey migrate while a server process has the folder open', () => {
  test('is refused with exit code 1, naming the process and the fix; the holder keeps its lock', async () => {
    const dir = await tempDir()
    const holder = join(dir, 'server.mjs')
    await writeFile(holder, `import { openEmbedded } from ${JSON.stringify(join(import.meta.dirname, '../../src/adapters/postgres/index.ts'))}
      await openEmbedded(process.argv[2])
      console.log('open')
      setInterval(() => {}, 1000)`)
    const child = spawn(process.execPath, ['--import', 'tsx', holder, join(dir, 'db')], { stdio: ['ignore', 'pipe', 'inherit'] })
    children.push(child)
    const lines = createInterface({ input: child.stdout! })
    await new Promise<void>((resolve, reject) => {
      lines.once('line', () => resolve())
      child.once('exit', (code) => reject(new Error(`the holding process exited (${code}) before opening the folder`)))
    })

    const out: string[] = []
    const err: string[] = []
    const io: CliIo = { out: (line) => out.push(line), err: (line) => err.push(line), env: {} }
    const db = join(dir, 'db')
    expect(await run(['migrate', '--dir', db], io)).toBe(1)
    expect(out).toEqual([])
    // First what follows from no DATABASE_URL, then why the embedded database cannot be had.
    expect(err[0]).toMatch(/^latchkey migrate: DATABASE_URL is unset .*, so the embedded database \(PGlite\) in .* is used/)
    expect(err.slice(1).join('\n')).toMatch(
      new RegExp(`^latchkey migrate failed: The embedded database in ${db} is in use by process ${child.pid} \\(\\S*node \\S*server\\.mjs \\S*db\\), since \\d{4}-`),
    )
    expect(err.join('\n')).toMatch(/run "latchkey migrate" while the server is stopped \(the server migrates on start anyway\)/)
    expect(JSON.parse(await readFile(join(db, LOCK_FILE), 'utf8')).pid).toBe(child.pid)

    // Once the server stops (killed: no exit handler runs, the lock stays behind), migrate takes over.
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    const after: string[] = []
    expect(await run(['migrate', '--dir', db], { ...io, out: (line) => after.push(line) })).toBe(0)
    expect(after[0]).toBe(`Database: ${db}`)
    expect(existsSync(join(db, LOCK_FILE))).toBe(false)
  }, 120_000)
})
