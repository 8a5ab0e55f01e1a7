/**
 * A plugin's store (`LatchkeyPlugin.schema` and `adapterMethods`, issue 42 item 1): its methods
 * joined to the memory and SQL adapters, names that collide refused, its migrations applied once
 * by `migrate` and recorded by plugin id (also with servers starting at once), its methods checked
 * at start-up, and two servers on one PostgreSQL sharing the guide's waitlist.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { waitlist } from '../../examples/plugins/waitlist.js'
import { waitlistSchema } from '../../examples/plugins/waitlist-store.js'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { fromPg, LATEST_VERSION, migrate, openDatabase, PLUGIN_SCHEMA_TABLE, PostgresAdapter, VERSION_TABLE } from '../../src/adapters/postgres/index.js'
import { Latchkey, type LatchkeyPlugin, type PluginSchema } from '../../src/server/index.js'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { Jar } from '../support/jar.js'
import { needsService } from '../support/needs-service.js'
import { testSecret } from '../support/server.js'

/** A plugin with one store method, `name`, and the given migrations. */
function storing(id: string, name: string, migrations: PluginSchema['migrations'] = []): LatchkeyPlugin {
  const methods = () => ({ [name]: async () => id })
  return { id, schema: { migrations, sql: methods, memory: methods } }
}

const fakeDb = { query: async () => ({ rows: [] }) }

function refusal(f: () => unknown): Error {
  try {
    f()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a refusal')
}

describe('the adapters join a plugin’s methods', () => {
  it('memory: each adapter its own records, and clear() empties them', async () => {
    const plugins = [waitlist({ capacity: 5 })]
    const one = MemoryAdapter({ plugins }) as MemoryAdapter & { joinWaitlist(e: string, c: number): Promise<boolean>; countWaitlist(): Promise<number> }
    const two = MemoryAdapter({ plugins }) as typeof one
    expect(await one.joinWaitlist('ada@example.com', 5)).toBe(true)
    expect(await one.countWaitlist()).toBe(1)
    expect(await two.countWaitlist()).toBe(0)
    one.clear()
    expect(await one.countWaitlist()).toBe(0)
    expect(await one.joinWaitlist('ada@example.com', 5)).toBe(true)
  })

  it('a name the adapter has, or another plugin adds, is refused with both named', () => {
    expect(refusal(() => MemoryAdapter({ plugins: [storing('thief', 'getUser')] }))).toMatchObject({
      type: 'Configuration',
      message: 'MemoryAdapter: plugin "thief" adds the method getUser, which the adapter has already; give the plugin\'s method another name',
    })
    expect(refusal(() => PostgresAdapter(fakeDb, { plugins: [storing('thief', 'rateLimitStore')] })).message).toBe(
      'PostgresAdapter: plugin "thief" adds the method rateLimitStore, which the adapter has already; give the plugin\'s method another name',
    )
    expect(refusal(() => PostgresAdapter(fakeDb, { plugins: [storing('one', 'count'), storing('two', 'count')] })).message).toBe(
      'PostgresAdapter: plugin "two" adds the method count, which plugin "one" adds already; give the plugin\'s method another name',
    )
  })

  it('migrations numbered out of order, without statements, or a plugin listed twice are refused', () => {
    const gap = storing('gap', 'x', [{ version: 2, name: 'two', statements: ['SELECT 1'] }])
    expect(refusal(() => MemoryAdapter({ plugins: [gap] })).message).toBe('MemoryAdapter: plugin "gap" schema migrations[0] must have version 1, got 2')
    const empty = storing('empty', 'x', [{ version: 1, name: 'one', statements: [''] }])
    expect(refusal(() => PostgresAdapter(fakeDb, { plugins: [empty] })).message).toBe('PostgresAdapter: plugin "empty" schema migration 1 needs statements: a list of SQL strings')
    const twice = storing('twice', 'x')
    expect(refusal(() => MemoryAdapter({ plugins: [twice, twice] })).message).toBe('MemoryAdapter: the plugin "twice" is listed twice; list each plugin once')
  })
})

describe('start-up checks the methods a plugin calls', () => {
  function start(adapter: ReturnType<typeof MemoryAdapter>) {
    const logs: string[] = []
    const handler = Latchkey({
      secret: testSecret,
      adapter,
      providers: [],
      plugins: [waitlist({ capacity: 5 })],
      logger: { error: (e) => logs.push(`${e.name} ${(e as { type?: string }).type}: ${e.message}`), warn: () => {}, debug: () => {} },
      rateLimit: false,
    })
    return { handler, logs }
  }

  it('an adapter made without the plugin is reported at start-up, and its route fails with MissingAdapterMethods', async () => {
    const { handler, logs } = start(MemoryAdapter())
    expect(logs).toEqual([
      'MissingAdapterMethods MissingAdapterMethods: latchkey: the adapter lacks joinWaitlist, countWaitlist, leaveWaitlist; sign-ins and routes that need them will fail (make the adapter with plugin "waitlist", whose schema adds methods: plugins: [...] in its options)',
    ])
    const res = await new Jar(handler).get('/auth/waitlist')
    expect(res.status).toBe(500)
    expect(logs.join('\n')).toMatch(/lacks .*countWaitlist.* the waitlist/)
  })

  it('an adapter made with it: nothing reported, and the route reads the store', async () => {
    const adapter = MemoryAdapter({ plugins: [waitlist({ capacity: 5 })] })
    const { handler, logs } = start(adapter)
    expect(logs).toEqual([])
    const jar = new Jar(handler)
    expect((await jar.postForm('/auth/waitlist', { csrfToken: await jar.csrf(), action: 'join', email: 'ada@example.com' })).status).toBe(200)
    expect(await (adapter as unknown as { countWaitlist(): Promise<number> }).countWaitlist()).toBe(1)
  })
})

const url = needsService('DATABASE_URL', 'plugin schema on PostgreSQL', 'postgres://postgres@127.0.0.1:5432/test', 'test/plugins/schema.test.ts')

describe.runIf(url)('a plugin’s migrations on PostgreSQL', () => {
  const schemas: IsolatedSchema[] = []
  const isolated = async () => {
    const schema = await createIsolatedSchema(url!)
    schemas.push(schema)
    return schema
  }
  afterAll(async () => {
    await Promise.all(schemas.map((s) => s.drop()))
  })
  const plugins = [waitlist({ capacity: 2 })]
  const recorded = async (db: ReturnType<typeof fromPg>) =>
    (await db.query<{ plugin: string; version: number; name: string }>(`SELECT plugin, version, name FROM ${PLUGIN_SCHEMA_TABLE} ORDER BY plugin, version`, [])).rows

  it('applied once, recorded by plugin id apart from latchkey’s versions; a later migration alone the next time', async () => {
    const db = fromPg((await isolated()).pgPool(1))
    const first = await migrate(db, { plugins })
    expect(first.to).toBe(LATEST_VERSION)
    expect(first.plugins).toEqual([{ plugin: 'waitlist', version: 1, name: 'waitlist entries' }])
    expect(await migrate(db, { plugins })).toEqual({ from: LATEST_VERSION, to: LATEST_VERSION, applied: [], plugins: [] })
    expect(await recorded(db)).toEqual([{ plugin: 'waitlist', version: 1, name: 'waitlist entries' }])
    // latchkey's own version 1 is still its own, in its own table.
    expect((await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${VERSION_TABLE}`, [])).rows[0]!.n).toBe(LATEST_VERSION)

    const grown: LatchkeyPlugin = {
      id: 'waitlist',
      schema: { ...waitlistSchema, migrations: [...waitlistSchema.migrations, { version: 2, name: 'a note', statements: ['ALTER TABLE waitlist_entries ADD COLUMN note text'] }] },
    }
    expect((await migrate(db, { plugins: [grown] })).plugins).toEqual([{ plugin: 'waitlist', version: 2, name: 'a note' }])
    expect(await recorded(db)).toEqual([
      { plugin: 'waitlist', version: 1, name: 'waitlist entries' },
      { plugin: 'waitlist', version: 2, name: 'a note' },
    ])
    // The older plugin meets a database it does not know.
    await expect(migrate(db, { plugins })).rejects.toThrow('migrate: the database has plugin "waitlist" at schema version 2, newer than this plugin knows (1); upgrade the plugin')
  })

  it('three servers migrating at once: each succeeds, the plugin’s tables are made once', async () => {
    const schema = await isolated()
    const servers = [fromPg(schema.pgPool(2)), fromPg(schema.pgPool(2)), fromPg(schema.pgPool(2))]
    const results = await Promise.all(servers.map((db) => migrate(db, { plugins })))
    expect(results.map((r) => r.plugins!.length).sort()).toEqual([0, 0, 1])
    expect(await recorded(servers[0]!)).toEqual([{ plugin: 'waitlist', version: 1, name: 'waitlist entries' }])
  })

  it('a failing statement is named with its plugin and migration, and nothing of it stays', async () => {
    const db = fromPg((await isolated()).pgPool(1))
    const broken = storing('broken', 'x', [{ version: 1, name: 'typo', statements: ['CREATE TABLE broken_things (id text PRIMARY KEY)', 'CREAT TABLE nope ()'] }])
    await expect(migrate(db, { plugins: [broken] })).rejects.toMatchObject({ code: 'MigrationFailed', message: expect.stringMatching(/^migrate: plugin "broken" migration 1 \(typo\) failed: syntax error/) })
    expect((await db.query<{ t: string | null }>(`SELECT to_regclass('broken_things')::text AS t`, [])).rows[0]!.t).toBeNull()
  })

  it('two servers on one PostgreSQL share the waitlist', async () => {
    const schema = await isolated()
    const at = `${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema.name}`)}`
    // Both start at once, each migrating with the plugin.
    const [storeA, storeB] = await Promise.all([openDatabase(at, { plugins }), openDatabase(at, { plugins })])
    try {
      const server = (adapter: typeof storeA) =>
        new Jar(Latchkey({ secret: testSecret, adapter, providers: [], plugins, rateLimit: false, logger: { error: () => {}, warn: () => {}, debug: () => {} } }))
      const [a, b] = [server(storeA), server(storeB)]
      const join = async (jar: Jar, email: string) => (await jar.postForm('/auth/waitlist', { csrfToken: await jar.csrf(), action: 'join', email })).status
      const count = async (jar: Jar) => (await (await jar.get('/auth/waitlist')).json()).waiting
      expect(await join(a, 'ada@example.com')).toBe(200)
      expect(await count(b)).toBe(1)
      expect(await join(b, 'bo@example.com')).toBe(200)
      expect(await count(a)).toBe(2)
      // Capacity 2, counted across both: the third address is refused wherever it arrives.
      expect(await join(a, 'cy@example.com')).toBe(409)
      expect(await join(b, 'cy@example.com')).toBe(409)
    } finally {
      await Promise.all([storeA.close(), storeB.close()])
    }
  })
})
