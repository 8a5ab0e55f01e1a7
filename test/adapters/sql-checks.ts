/**
 * Checks that only the SQL adapter has to pass (beyond the shared contract suite): round trips
 * per method, error codes from constraints, migrate's bookkeeping, values that look like SQL.
 */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  countQueries,
  LATEST_VERSION,
  migrate,
  migrations,
  PostgresAdapter,
  schemaVersion,
  VERSION_TABLE,
  type Queryable,
} from '../../src/adapters/postgres/index.js'

export function runSqlChecks(name: string, database: () => Promise<Queryable>): void {
  describe(`SQL adapter specifics: ${name}`, () => {
    let db: Queryable
    const getDb = () => db
    beforeAll(async () => {
      db = await database()
    })

    test('migrate is idempotent and records the schema version', async () => {
      const db = getDb()
      const again = await migrate(db)
      expect(again).toEqual({ from: LATEST_VERSION, to: LATEST_VERSION, applied: [] })
      expect(await migrate(db)).toEqual(again)
      expect(await schemaVersion(db)).toBe(LATEST_VERSION)
      const { rows } = await db.query<{ version: number; name: string }>(`SELECT version, name FROM ${VERSION_TABLE} ORDER BY version`, [])
      expect(rows.map((r) => ({ version: Number(r.version), name: r.name }))).toEqual(migrations.map(({ version, name }) => ({ version, name })))
    })

    test('getSessionAndUser and useVerificationToken each take exactly one query', async () => {
      const counted = countQueries(getDb())
      const adapter = PostgresAdapter(counted)
      const user = await adapter.createUser({ id: randomUUID(), email: `q-${randomUUID()}@example.test`, emailVerified: null })
      await adapter.createSession({ sessionToken: `s-${randomUUID()}`, userId: user.id, expires: new Date(Date.now() + 60_000) })
      counted.reset()
      await adapter.getSessionAndUser(`s-${randomUUID()}`)
      expect(counted.count).toBe(1)
      counted.reset()
      await adapter.useVerificationToken({ identifier: user.email, token: 'none' })
      expect(counted.count).toBe(1)
    })

    test('the onQuery option sees every statement with its parameters', async () => {
      const seen: Array<[string, unknown[]]> = []
      const adapter = PostgresAdapter(getDb(), { onQuery: (sql, params) => seen.push([sql, params]) })
      await adapter.getUser('nobody')
      expect(seen).toHaveLength(1)
      expect(seen[0]![0]).toMatch(/FROM users WHERE id = \$1/)
      expect(seen[0]![1]).toEqual(['nobody'])
    })

    test('constraint violations become AdapterErrors with a code and a clear message', async () => {
      const adapter = PostgresAdapter(getDb())
      const email = `dup-${randomUUID()}@example.test`
      const user = await adapter.createUser({ id: randomUUID(), email, emailVerified: null })
      await expect(adapter.createUser({ id: randomUUID(), email, emailVerified: null })).rejects.toMatchObject({
        name: 'AdapterError',
        code: 'DuplicateEmail',
        message: expect.stringMatching(/createUser: expected a new email address/),
      })
      await expect(adapter.createUser({ id: user.id, email: `other-${email}`, emailVerified: null })).rejects.toMatchObject({
        code: 'DuplicateUser',
      })
      await expect(
        adapter.linkAccount({ userId: 'nobody', type: 'oauth', provider: 'p', providerAccountId: randomUUID() }),
      ).rejects.toMatchObject({ code: 'UnknownUser' })
      await expect(adapter.updateUser({ id: 'nobody', name: 'x' })).rejects.toMatchObject({ code: 'UnknownUser' })
      await expect(adapter.updateAuthenticatorCounter('nobody', 1)).rejects.toMatchObject({ code: 'UnknownAuthenticator' })
      await expect(adapter.updateAuthenticatorCounter('nobody', -1)).rejects.toMatchObject({ code: 'InvalidInput' })
    })

    test('extra account fields are stored as a jsonb object and token fields in their own columns', async () => {
      const adapter = PostgresAdapter(getDb())
      const user = await adapter.createUser({ id: randomUUID(), email: `j-${randomUUID()}@example.test`, emailVerified: null })
      const providerAccountId = randomUUID()
      await adapter.linkAccount({
        userId: user.id,
        type: 'oidc',
        provider: 'jsonb-check',
        providerAccountId,
        access_token: 'at',
        expires_at: 1_900_000_000,
        session_state: 'ss',
        authorization_details: [{ type: 't' }],
      })
      const { rows } = await getDb().query<{ kind: string; state: string; at: string; expires_at: number }>(
        `SELECT jsonb_typeof(extra) AS kind, extra->>'session_state' AS state, access_token AS at, expires_at
         FROM accounts WHERE provider = $1 AND provider_account_id = $2`,
        ['jsonb-check', providerAccountId],
      )
      expect(rows).toEqual([{ kind: 'object', state: 'ss', at: 'at', expires_at: 1_900_000_000 }])
    })

    test('values that look like SQL are stored as plain data', async () => {
      const adapter = PostgresAdapter(getDb())
      const email = `x'); DROP TABLE users; --${randomUUID()}@example.test`
      const user = await adapter.createUser({ id: randomUUID(), email, name: "Robert'); --", emailVerified: null })
      expect((await adapter.getUserByEmail(email))?.name).toBe("Robert'); --")
      expect(await adapter.getUser(user.id)).toEqual(user)
    })

    test('a password hash is one passwords row per user, stored as given with its updated_at, replaced in place, gone with null', async () => {
      const adapter = PostgresAdapter(getDb())
      const user = await adapter.createUser({ id: randomUUID(), email: `pw-${randomUUID()}@example.test`, emailVerified: null })
      const read = async () =>
        (await getDb().query<{ hash: string; updated_at: Date | string }>(`SELECT hash, updated_at FROM passwords WHERE user_id = $1`, [user.id])).rows
      await adapter.setPasswordHash(user.id, "$argon2id$v=19$x'); DROP TABLE passwords; --")
      const [first] = await read()
      expect(first?.hash).toBe("$argon2id$v=19$x'); DROP TABLE passwords; --")
      await adapter.setPasswordHash(user.id, '$argon2id$v=19$second')
      const after = await read()
      expect(after.map((r) => r.hash)).toEqual(['$argon2id$v=19$second'])
      expect(Number.isNaN(new Date(after[0]!.updated_at).getTime())).toBe(false)
      await adapter.setPasswordHash(user.id, null)
      expect(await read()).toEqual([])
    })

    test('emails are stored and compared as given', async () => {
      const adapter = PostgresAdapter(getDb())
      const email = `Mixed.Case-${randomUUID()}@Example.test`
      await adapter.createUser({ id: randomUUID(), email, emailVerified: null })
      expect((await adapter.getUserByEmail(email))?.email).toBe(email)
      expect(await adapter.getUserByEmail(email.toLowerCase())).toBeNull()
    })
  })
}
