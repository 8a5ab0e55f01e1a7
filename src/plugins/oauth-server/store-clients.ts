/**
 * Dynamically registered clients (RFC 7591) in the plugin's store: the client as the routes read
 * it, its secret only as SHA-256, and the metadata answered at registration. One migration and
 * its methods, merged into oauthServerSchema (store.ts).
 */
import type { PluginMigration, SchemaQueryable } from 'latchkey/server'
import type { ResolvedClient } from './options.js'

export interface RegisteredClient {
  client: ResolvedClient
  /** What the registration answered, without the secret. */
  metadata: Record<string, unknown>
  createdAt: Date
}

export interface RegisteredClientStore {
  createOAuthClient(registered: RegisteredClient): Promise<void>
  getOAuthClient(clientId: string): Promise<RegisteredClient | null>
}

export const clientsMigration: PluginMigration = {
  version: 2,
  name: 'dynamically registered clients',
  statements: [`CREATE TABLE oauth_server_clients (client_id text PRIMARY KEY, client jsonb NOT NULL, metadata jsonb NOT NULL, created_at timestamptz NOT NULL)`],
}

const parsed = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>

export const clientsSql = (db: SchemaQueryable): RegisteredClientStore => ({
  async createOAuthClient(r) {
    await db.query('INSERT INTO oauth_server_clients (client_id, client, metadata, created_at) VALUES ($1, $2::jsonb, $3::jsonb, $4)', [r.client.clientId, JSON.stringify(r.client), JSON.stringify(r.metadata), r.createdAt])
  },
  async getOAuthClient(clientId) {
    const { rows } = await db.query<{ client: unknown; metadata: unknown; created_at: unknown }>('SELECT client, metadata, created_at FROM oauth_server_clients WHERE client_id = $1', [clientId])
    const row = rows[0]
    if (!row) return null
    const at = row.created_at
    return { client: parsed(row.client) as unknown as ResolvedClient, metadata: parsed(row.metadata), createdAt: at instanceof Date ? at : new Date(at as string) }
  },
})

export function clientsMemory(): RegisteredClientStore {
  const clients = new Map<string, RegisteredClient>()
  return {
    async createOAuthClient(r) {
      if (clients.has(r.client.clientId)) throw new Error(`oauth client ${r.client.clientId} exists`)
      clients.set(r.client.clientId, structuredClone(r))
    },
    getOAuthClient: async (clientId) => (clients.has(clientId) ? structuredClone(clients.get(clientId)!) : null),
  }
}

export const clientsTests = {
  'a registered client is read back whole, its secret hash with it; another id reads as none': async (store: RegisteredClientStore) => {
    const clientId = `lkc_${crypto.randomUUID()}`
    const client: ResolvedClient = { clientId, secretHash: 'ab'.repeat(32), redirectUris: ['https://c.example/cb'], name: 'C', scopes: ['a'], grantTypes: ['authorization_code'], introspectAny: false }
    await store.createOAuthClient({ client, metadata: { client_name: 'C', redirect_uris: ['https://c.example/cb'] }, createdAt: new Date(5000) })
    const back = await store.getOAuthClient(clientId)
    // jsonb keeps no key order: compared with the keys sorted.
    const same = (a: unknown, b: unknown) => JSON.stringify(a, Object.keys(a as object).sort()) === JSON.stringify(b, Object.keys(b as object).sort())
    if (!back || !same(back.client, client) || back.metadata.client_name !== 'C' || back.createdAt.getTime() !== 5000) throw new Error(`expected the client back, got ${JSON.stringify(back)}`)
    if (await store.getOAuthClient(`lkc_${crypto.randomUUID()}`)) throw new Error('expected an unknown client to read as null')
  },
}
