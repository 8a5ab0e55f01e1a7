/**
 * What the plugin keeps in the store (`PluginSchema`): connections in PostgreSQL (store-sql.ts)
 * or memory (store-memory.ts), and the cases latchkey/adapter-test runs against every adapter
 * made with it (and with organizations, whose table the connections reference).
 */
import type { Adapter, PluginSchema } from 'latchkey/server'
import type { ConnectionRecord, SsoStore } from './records.js'
import { memoryStore } from './store-memory.js'
import { migrations, sqlStore } from './store-sql.js'

export const storeMethods: Array<keyof SsoStore> = [
  'createSsoConnection',
  'getSsoConnection',
  'listSsoConnections',
  'updateSsoConnection',
  'deleteSsoConnection',
  'listSsoConnectionsForDomain',
  'useSsoOnce',
]

type Store = Adapter & SsoStore & { createOrganization?: (...args: any[]) => Promise<unknown> }

function check(ok: unknown, what: string): void {
  if (!ok) throw new Error(`expected ${what}`)
}

/** An organization to hang connections on, where the adapter has the organizations plugin too (SQL: its table is referenced). */
async function organization(store: Store): Promise<string> {
  const id = crypto.randomUUID()
  const user = await store.createUser!({ id: `sso-user-${id}`, email: `sso-${id}@example.test`, emailVerified: null })
  const now = new Date()
  await store.createOrganization?.({ id, name: 'Acme', slug: `sso-${id}`, logo: null, createdAt: now }, { id: crypto.randomUUID(), organizationId: id, userId: user.id, role: 'owner', joinedAt: now })
  return id
}

export function connectionOf(organizationId: string, domain: string, at = new Date()): ConnectionRecord {
  return {
    id: crypto.randomUUID(),
    organizationId,
    kind: 'oidc',
    name: 'Acme IdP',
    domains: [domain],
    required: false,
    defaultRole: 'member',
    groupRoles: { admins: 'admin' },
    attributes: { email: 'email', name: 'name', groups: 'groups' },
    oidc: { issuer: 'https://idp.example.test', clientId: 'client', scopes: 'openid email profile' },
    saml: null,
    sealedSecret: 'sealed',
    createdAt: at,
    updatedAt: at,
  }
}

export const ssoSchema: PluginSchema<SsoStore> = {
  migrations,
  sql: sqlStore,
  memory: memoryStore,
  tests: {
    'a connection is kept whole, listed for its organization only, found by its domain, changed and deleted by its organization only': async (store) => {
      const s = store as Store
      const [orgA, orgB] = [await organization(s), await organization(s)]
      const domain = `${crypto.randomUUID()}.example.test`
      const made = await s.createSsoConnection(connectionOf(orgA, domain))
      const read = await s.getSsoConnection(made.id)
      check(read && read.organizationId === orgA && read.domains[0] === domain && read.groupRoles.admins === 'admin' && read.oidc?.clientId === 'client' && read.sealedSecret === 'sealed', 'the connection read back whole')
      check((await s.listSsoConnections(orgB)).length === 0, "another organization to list none of orgA's")
      check((await s.listSsoConnectionsForDomain(domain)).map((c) => c.id).join() === made.id, 'the domain to find it')
      check((await s.updateSsoConnection(orgB, made.id, { name: 'Stolen' })) === null, "another organization's update refused")
      const renamed = await s.updateSsoConnection(orgA, made.id, { name: 'Renamed', domains: [domain, `b.${domain}`], updatedAt: new Date() })
      check(renamed?.name === 'Renamed' && renamed.domains.length === 2 && renamed.sealedSecret === 'sealed', 'the update to keep what it did not change')
      check((await s.listSsoConnectionsForDomain(`b.${domain}`)).length === 1, 'the new domain to find it')
      check(!(await s.deleteSsoConnection(orgB, made.id)), "another organization's delete refused")
      check(await s.deleteSsoConnection(orgA, made.id), 'the delete')
      check((await s.getSsoConnection(made.id)) === null, 'the connection gone')
    },
    'a once-only key has one winner, even at once, and is free again once expired': async (store) => {
      const key = `once-${crypto.randomUUID()}`
      const now = new Date()
      const results = await Promise.all(Array.from({ length: 5 }, () => store.useSsoOnce(key, new Date(now.getTime() + 60_000), now)))
      check(results.filter(Boolean).length === 1, 'one winner among five at once')
      check(!(await store.useSsoOnce(key, new Date(now.getTime() + 60_000), now)), 'a later use refused')
      check(await store.useSsoOnce(key, new Date(now.getTime() + 180_000), new Date(now.getTime() + 120_000)), 'the key usable again after it expired')
    },
  },
}
