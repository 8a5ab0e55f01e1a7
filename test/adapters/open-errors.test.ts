/**
 * A wrong DATABASE_URL, met for real against the local PostgreSQL: each failure is
 * `ConnectionFailed` with a reason, names the URL with its password hidden, and says the fix;
 * `npx latchkey migrate` prints that message and no stack.
 */
import { describe, expect, it } from 'vitest'
import { run, type CliIo } from '../../bin/latchkey.js'
import { connectionError } from '../../src/adapters/postgres/connect-errors.js'
import { migrate } from '../../src/adapters/postgres/migrate.js'
import { openDatabase } from '../../src/adapters/postgres/open.js'
import { needsService } from '../support/needs-service.js'
import { freePort } from '../support/free-port.js'

const server = needsService('DATABASE_URL', 'connection error suite', 'postgres://postgres@127.0.0.1:5432/test', 'test/adapters/open-errors.test.ts')

/** The server's URL with another user, password or database. */
function variant(change: (url: URL) => void): string {
  const url = new URL(server!)
  change(url)
  return url.href
}

async function openError(url: string): Promise<Error & { code?: string; reason?: string }> {
  const error = await openDatabase(url).then(
    async (db) => {
      await db.close()
      return null
    },
    (e: Error) => e,
  )
  expect(error).not.toBeNull()
  return error!
}

const suffix = `${process.pid}_${Date.now()}`
const pglite = 'or unset DATABASE_URL to use the embedded PGlite database instead'

describe('openDatabase with a wrong URL', () => {
  it('a database that does not exist: 3D000, and createdb', async () => {
    const name = `latchkey_missing_${suffix}`
    const url = variant((u) => (u.pathname = `/${name}`))
    const error = await openError(url)
    expect(error).toMatchObject({ name: 'AdapterError', code: 'ConnectionFailed', reason: 'database-missing' })
    expect(error.message).toBe(`PostgreSQL at ${url} has no database "${name}" (3D000). Create it with: createdb ${name}, correct the database name in the URL, ${pglite}`)
  })

  it('a role that does not exist: 28000, with the password hidden', async () => {
    const role = `ghost_${suffix}`
    const url = variant((u) => {
      u.username = role
      u.password = 'hunter2-secret'
    })
    const error = await openError(url)
    expect(error).toMatchObject({ code: 'ConnectionFailed', reason: 'role' })
    const shown = variant((u) => {
      u.username = role
      u.password = '***'
    })
    expect(error.message).toBe(
      `PostgreSQL at ${shown} did not let role "${role}" in (28000): the role does not exist, or pg_hba.conf does not allow it. Create the role (createuser ${role}), correct the user in the URL, ${pglite}`,
    )
    expect(error.message).not.toContain('hunter2')
  })

  it('a port nothing listens on: ECONNREFUSED, and start PostgreSQL', async () => {
    const port = await freePort()
    const url = variant((u) => {
      u.hostname = '127.0.0.1'
      u.port = String(port)
    })
    const error = await openError(url)
    expect(error).toMatchObject({ code: 'ConnectionFailed', reason: 'refused' })
    expect(error.message).toBe(
      `could not connect to PostgreSQL at ${url}: nothing accepts connections on 127.0.0.1 port ${port} (ECONNREFUSED). Start PostgreSQL, or correct the host and port in the URL, ${pglite}`,
    )
  })

  it('a host that does not exist: ENOTFOUND', async () => {
    const url = variant((u) => (u.hostname = 'nonexistent.invalid'))
    const error = await openError(url)
    expect(error).toMatchObject({ code: 'ConnectionFailed', reason: 'host-not-found' })
    expect(error.message).toBe(`could not connect to PostgreSQL at ${url}: the host "nonexistent.invalid" was not found (ENOTFOUND). Correct the host name in the URL, ${pglite}`)
  })

  it('npx latchkey migrate prints the message and no stack', async () => {
    const name = `latchkey_missing_${suffix}`
    const err: string[] = []
    const io: CliIo = { out: () => {}, err: (line) => err.push(line), env: {} }
    expect(await run(['migrate', '--database-url', variant((u) => (u.pathname = `/${name}`))], io)).toBe(1)
    expect(err.join('\n')).toMatch(new RegExp(`^latchkey migrate failed: PostgreSQL at .* has no database "${name}" \\(3D000\\)\\. Create it with: createdb ${name}`))
    expect(err.join('\n')).not.toMatch(/\n\s+at |\.ts:\d+/)
  })

  it('a failure after the connection is still MigrationFailed', async () => {
    const broken = { query: async () => ({ rows: [] }), transaction: async () => Promise.reject(Object.assign(new Error('syntax error'), { code: '42601' })) }
    await expect(migrate(broken, { location: server! })).rejects.toMatchObject({ code: 'MigrationFailed' })
  })
})

describe('connectionError', () => {
  it('reads a wrong password (28P01) from its code, whatever the message says', () => {
    const error = connectionError(Object.assign(new Error('Passwort-Authentifizierung fehlgeschlagen'), { code: '28P01' }), 'postgres://ada:***@db.example:5432/app')
    expect(error).toMatchObject({ code: 'ConnectionFailed', reason: 'authentication' })
    expect(error!.message).toBe(`PostgreSQL at postgres://ada:***@db.example:5432/app refused the password of role "ada" (28P01). Correct the user and password in the URL, ${pglite}`)
  })

  it('leaves any other error to the caller', () => {
    expect(connectionError(Object.assign(new Error('duplicate key'), { code: '23505' }), 'postgres://db.example/app')).toBeNull()
    expect(connectionError(new Error('connect ECONNREFUSED, said only in the message'), 'postgres://db.example/app')).toBeNull()
  })
})
