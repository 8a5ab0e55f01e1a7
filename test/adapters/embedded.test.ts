/**
 * openEmbedded and openDatabase: PGlite data on disk survives closing and reopening; a
 * postgres:// URL goes to the server through pg, and an idle connection the server ends costs a
 * warning, not the process; anything else is refused clearly.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { LATEST_VERSION, openDatabase, openEmbedded } from '../../src/adapters/postgres/index.js'
import { migrations } from '../../src/adapters/postgres/schema.js'
import { createIsolatedSchema } from './isolated-schema.js'
import { needsService } from '../support/needs-service.js'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })))
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-embedded-'))
  folders.push(dir)
  return dir
}

describe('openEmbedded', () => {
  test('data written before close is there after reopening the folder', async () => {
    const dir = join(await tempDir(), 'nested', 'db')
    const first = await openEmbedded(dir)
    expect(first.migration).toEqual({ from: 0, to: LATEST_VERSION, applied: migrations.map(({ version, name }) => ({ version, name })) })
    expect(first.location).toBe(dir)
    const user = await first.createUser({ id: 'persisted', email: 'persist@example.test', emailVerified: new Date(1_700_000_000_123), name: 'Kept' })
    await first.linkAccount({ userId: user.id, type: 'oidc', provider: 'idp', providerAccountId: 'sub-1', session_state: 'abc' })
    await first.createVerificationToken({ identifier: user.email, token: 'hash', expires: new Date(1_900_000_000_456) })
    await first.close()

    const second = await openEmbedded(dir)
    try {
      expect(second.migration.applied).toEqual([])
      expect(await second.getUser('persisted')).toEqual(user)
      expect((await second.getAccount('sub-1', 'idp'))?.session_state).toBe('abc')
      expect((await second.useVerificationToken({ identifier: user.email, token: 'hash' }))?.expires.getTime()).toBe(1_900_000_000_456)
    } finally {
      await second.close()
    }
  }, 120_000) // two cold starts of PGlite on disk: seconds each, more on a busy machine
})

describe('openDatabase', () => {
  test('refuses a URL that is not PostgreSQL, naming what it expected and hiding the password', async () => {
    await expect(openDatabase('mysql://root:hunter2@db.example.test/app')).rejects.toThrow(
      /expected a postgres:\/\/ or postgresql:\/\/ URL .* got mysql:\/\/root:\*\*\*@db\.example\.test\/app/,
    )
    await expect(openDatabase('mysql://root:hunter2@db.example.test/app')).rejects.not.toThrow(/hunter2/)
  })

  // Without a URL openDatabase opens the embedded database: cli.test.ts covers that path.

  const url = needsService('DATABASE_URL', 'openDatabase test with a PostgreSQL server', 'postgres://postgres@127.0.0.1:5432/test', 'test/adapters/embedded.test.ts')
  if (url) {
    test('with a postgres:// URL, uses the PostgreSQL server', async () => {
      const schema = await createIsolatedSchema(url)
      try {
        const scoped = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema.name}`)}`
        const db = await openDatabase(scoped)
        try {
          expect(db.migration.from).toBe(0)
          expect(db.location.startsWith('postgres://')).toBe(true)
          const { rows } = await db.db.query<{ schema: string }>('SELECT current_schema() AS schema', [])
          expect(rows[0]!.schema).toBe(schema.name)
          const user = await db.createUser({ id: 'server', email: 'server@example.test', emailVerified: null })
          expect(await db.getUser(user.id)).toEqual(user)
        } finally {
          await db.close()
        }
      } finally {
        await schema.drop()
      }
    }, 60_000)

    test('an idle connection that PostgreSQL ends is a warning, not the end of the process, and the next query works', async () => {
      const schema = await createIsolatedSchema(url)
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
      try {
        // Its own application_name, so only this pool's connections are ended.
        const tag = `latchkey_idle_${schema.name}`
        const scoped = `${url}${url.includes('?') ? '&' : '?'}application_name=${tag}&options=${encodeURIComponent(`-c search_path=${schema.name}`)}`
        const db = await openDatabase(scoped)
        try {
          expect(await db.getUser('nobody')).toBeNull()
          const admin = new pg.Client({ connectionString: url })
          await admin.connect()
          const { rows } = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [tag]).finally(() => admin.end())
          expect(rows.length).toBeGreaterThan(0)
          await expect.poll(() => warn.mock.calls.length).toBeGreaterThan(0)
          expect(String(warn.mock.calls[0]![0])).toBe('latchkey: a PostgreSQL connection was lost while idle (57P01); the next query opens a new one')
          expect(await db.getUser('nobody')).toBeNull()
        } finally {
          await db.close()
        }
      } finally {
        warn.mockRestore()
        await schema.drop()
      }
    }, 60_000)
  }
})
