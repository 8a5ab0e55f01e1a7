/**
 * The waitlist's store (examples/plugins/waitlist.ts): one table in PostgreSQL, the same methods in
 * memory, and the cases `latchkey/adapter-test` runs against both. Every adapter made with the
 * plugin (`PostgresAdapter`, `openDatabase`, `MemoryAdapter`: `plugins: [...]`) has these methods.
 */
import type { PluginSchema } from 'latchkey/server'

export interface WaitlistStore {
  /** Puts the address on the list, unless the list holds `capacity` others; false when full. */
  joinWaitlist(email: string, capacity: number): Promise<boolean>
  countWaitlist(): Promise<number>
  leaveWaitlist(email: string): Promise<void>
}

export const waitlistSchema: PluginSchema<WaitlistStore> = {
  // Numbered 1, 2, 3... for this plugin alone; `migrate` applies each once, recorded under its id.
  migrations: [
    {
      version: 1,
      name: 'waitlist entries',
      statements: ['CREATE TABLE waitlist_entries (email text PRIMARY KEY, joined_at timestamptz NOT NULL DEFAULT now())'],
    },
  ],
  sql: (db) => ({
    async joinWaitlist(email, capacity) {
      // One statement: in already, or in now while there is room. Two joins at one instant may
      // each see the last free place; a waitlist can live with one over.
      const { rows } = await db.query<{ joined: boolean }>(
        `WITH present AS (SELECT 1 FROM waitlist_entries WHERE email = $1::text),
              added AS (INSERT INTO waitlist_entries (email) SELECT $1::text
                        WHERE NOT EXISTS (SELECT 1 FROM present) AND (SELECT count(*) FROM waitlist_entries) < $2::integer
                        ON CONFLICT (email) DO NOTHING RETURNING 1)
         SELECT EXISTS (SELECT 1 FROM present) OR EXISTS (SELECT 1 FROM added) AS joined`,
        [email, capacity],
      )
      return rows[0]!.joined
    },
    async countWaitlist() {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM waitlist_entries', [])
      return rows[0]!.n
    },
    async leaveWaitlist(email) {
      await db.query('DELETE FROM waitlist_entries WHERE email = $1::text', [email])
    },
  }),
  memory: () => {
    const emails = new Set<string>()
    return {
      async joinWaitlist(email, capacity) {
        if (!emails.has(email) && emails.size >= capacity) return false
        emails.add(email)
        return true
      },
      countWaitlist: async () => emails.size,
      async leaveWaitlist(email) {
        emails.delete(email)
      },
    }
  },
  // Run by latchkey/adapter-test on every adapter given the plugin. Other cases share the store, so counts are relative.
  tests: {
    'an address joins once and leaves': async (store) => {
      const email = `wait-${crypto.randomUUID()}@example.test`
      const before = await store.countWaitlist()
      for (let i = 0; i < 2; i++) if (!(await store.joinWaitlist(email, before + 5))) throw new Error('expected the address to join')
      if ((await store.countWaitlist()) !== before + 1) throw new Error('expected one entry for an address that joined twice')
      await store.leaveWaitlist(email)
      if ((await store.countWaitlist()) !== before) throw new Error('expected the entry gone after leaveWaitlist')
    },
    'a full list refuses a new address, not one already on it': async (store) => {
      const [first, second] = [crypto.randomUUID(), crypto.randomUUID()].map((id) => `wait-${id}@example.test`)
      const capacity = (await store.countWaitlist()) + 1
      if (!(await store.joinWaitlist(first!, capacity))) throw new Error('expected the last place to be taken')
      if (await store.joinWaitlist(second!, capacity)) throw new Error('expected a full list to refuse a new address')
      if (!(await store.joinWaitlist(first!, capacity))) throw new Error('expected an address on the list to be let in again')
      await store.leaveWaitlist(first!)
    },
  },
}
