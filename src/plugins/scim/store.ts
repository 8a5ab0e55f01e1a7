/**
 * What the plugin keeps in the store (`PluginSchema`): its tables in PostgreSQL (store-sql.ts),
 * the same methods in memory (store-memory.ts), and the cases latchkey/adapter-test runs against
 * every adapter made with it. Its tables name the organizations plugin's: list that plugin first.
 */
import type { Adapter, PluginSchema } from 'latchkey/server'
import type { ScimStore } from './records.js'
import { memoryStore } from './store-memory.js'
import { migrations, sqlStore } from './store-sql.js'

export type { ScimStore } from './records.js'

export const storeMethods: Array<keyof ScimStore> = [
  'createScimToken',
  'listScimTokens',
  'deleteScimToken',
  'scimTokenByHash',
  'createScimUser',
  'getScimUser',
  'listScimUsers',
  'updateScimUser',
  'deleteScimUser',
  'createScimGroup',
  'getScimGroup',
  'listScimGroups',
  'updateScimGroup',
  'deleteScimGroup',
  'groupsOfScimUser',
  'groupsOfScimUsers',
]

/** The organizations store's method the cases need: an organization to hang the rows on. */
interface WithOrganizations {
  createOrganization(org: { id: string; name: string; slug: string; logo: null; createdAt: Date }, owner: { id: string; organizationId: string; userId: string; role: string; joinedAt: Date }): Promise<unknown>
}
type Store = Adapter & ScimStore & Partial<WithOrganizations>

function check(ok: unknown, what: string): void {
  if (!ok) throw new Error(`expected ${what}`)
}

async function organization(store: Store) {
  const id = crypto.randomUUID()
  const owner = await store.createUser!({ id: `scim-owner-${id}`, email: `scim-owner-${id}@example.test`, emailVerified: null })
  check(typeof store.createOrganization === 'function', 'the adapter made with the organizations plugin too')
  await store.createOrganization!({ id, name: 'Acme', slug: `scim-${id}`, logo: null, createdAt: new Date() }, { id: crypto.randomUUID(), organizationId: id, userId: owner.id, role: 'owner', joinedAt: new Date() })
  return id
}

async function provisioned(store: Store, organizationId: string, userName: string) {
  const user = await store.createUser!({ id: `scim-user-${crypto.randomUUID()}`, email: `${crypto.randomUUID()}@example.test`, emailVerified: null })
  const now = new Date()
  const made = await store.createScimUser({ id: crypto.randomUUID(), organizationId, userId: user.id, userName, externalId: `ext-${userName}`, active: true, attributes: { displayName: userName }, createdAt: now, updatedAt: now, version: 1 })
  check(made !== 'taken', `${userName} provisioned`)
  return made as Exclude<typeof made, 'taken'>
}

export const scimSchema: PluginSchema<ScimStore> = {
  migrations,
  sql: sqlStore,
  memory: memoryStore,
  tests: {
    'a SCIM token is found by its hash only, listed without it, and revoked only in its organization': async (store) => {
      const [a, b] = [await organization(store), await organization(store)]
      const tokenHash = `hash-${crypto.randomUUID()}`
      const token = await store.createScimToken({ id: crypto.randomUUID(), organizationId: a, name: 'Okta', tokenHash, createdBy: null, createdAt: new Date(), groupRoles: { 'Eng Admins': 'admin' } })
      check((await store.scimTokenByHash(tokenHash))?.organizationId === a, 'the token found by its hash')
      check((await store.scimTokenByHash(tokenHash))?.groupRoles['Eng Admins'] === 'admin', 'its group mapping kept')
      check(!('tokenHash' in (await store.listScimTokens(a))[0]!), 'the list without the hash')
      check(!(await store.deleteScimToken(b, token.id)), "another organization's revoke to touch nothing")
      check(await store.deleteScimToken(a, token.id), 'the token revoked')
      check((await store.scimTokenByHash(tokenHash)) === null, 'a revoked token gone')
    },
    'provisioned users: a userName once per organization in any case, found by userName and externalId, never across organizations': async (store) => {
      const [a, b] = [await organization(store), await organization(store)]
      const ada = await provisioned(store, a, 'Ada@Example.com')
      await provisioned(store, b, 'ada@example.com')
      const twin = await store.createUser!({ id: `scim-user-${crypto.randomUUID()}`, email: `${crypto.randomUUID()}@example.test`, emailVerified: null })
      const now = new Date()
      check((await store.createScimUser({ ...ada, id: crypto.randomUUID(), userId: twin.id, userName: 'ADA@example.com', createdAt: now })) === 'taken', 'the userName taken in any case')
      check((await store.createScimUser({ ...ada, id: crypto.randomUUID(), userName: 'other' })) === 'taken', 'one resource per latchkey user and organization')
      const byName = await store.listScimUsers(a, { userName: 'ada@EXAMPLE.com' }, { offset: 0, limit: 10 })
      check(byName.total === 1 && byName.users[0]!.id === ada.id, 'found by userName in any case, in its organization only')
      check((await store.listScimUsers(a, { externalId: 'ext-ada@example.com' }, { offset: 0, limit: 10 })).total === 0, 'externalId matched exactly')
      check((await store.getScimUser(b, ada.id)) === null, "not found through another organization")
      check((await store.updateScimUser(b, ada.id, { ...ada, active: false })) === null, "not changed through another organization")
      const changed = await store.updateScimUser(a, ada.id, { userName: 'ada', externalId: null, active: false, attributes: { displayName: 'Ada' }, updatedAt: now })
      check(changed !== null && changed !== 'taken' && !changed.active && changed.version === 2 && (changed.attributes as { displayName: string }).displayName === 'Ada', 'the change stored, the version bumped')
      const page = await store.listScimUsers(a, {}, { offset: 0, limit: 0 })
      check(page.total === 1 && page.users.length === 0, 'a count of 0 to answer the total alone')
      check((await store.deleteScimUser(b, ada.id)) === null && (await store.deleteScimUser(a, ada.id))?.id === ada.id, 'deleted in its organization only')
    },
    "groups keep only their organization's members, and go with a deleted member": async (store) => {
      const [a, b] = [await organization(store), await organization(store)]
      const ada = await provisioned(store, a, 'ada')
      const bob = await provisioned(store, a, 'bob')
      const eve = await provisioned(store, b, 'eve')
      const now = new Date()
      const group = await store.createScimGroup({ id: crypto.randomUUID(), organizationId: a, displayName: 'Admins', externalId: null, members: [ada.id, eve.id], createdAt: now, updatedAt: now, version: 1 })
      check(group !== 'taken' && group.members.join() === ada.id, "another organization's user left out")
      const id = (group as { id: string }).id
      check((await store.createScimGroup({ ...(group as object as Parameters<Store['createScimGroup']>[0]), id: crypto.randomUUID(), displayName: 'admins' })) === 'taken', 'a name once per organization')
      const changed = await store.updateScimGroup(a, id, { displayName: 'Owners', externalId: 'g1', members: [bob.id, ada.id], updatedAt: now })
      check(changed !== null && changed !== 'taken' && changed.members.join() === [ada.id, bob.id].sort().join() && changed.version === 2, 'members replaced')
      check((await store.getScimGroup(a, id))!.members.length === 2, 'the members read back')
      check((await store.groupsOfScimUser(a, bob.id))[0]?.displayName === 'Owners', "the user's groups")
      check((await store.listScimGroups(a, { displayName: 'OWNERS' }, { offset: 0, limit: 5 })).total === 1, 'found by name in any case')
      check((await store.getScimGroup(b, id)) === null && !(await store.deleteScimGroup(b, id)), 'not reached through another organization')
      await store.deleteScimUser(a, bob.id)
      check((await store.getScimGroup(a, id))!.members.join() === ada.id, 'a deleted user gone from the group')
      check(await store.deleteScimGroup(a, id), 'the group deleted')
    },
    "a page of users' groups in one call, none of another organization": async (store) => {
      const [a, b] = [await organization(store), await organization(store)]
      const [ada, bob, cy] = [await provisioned(store, a, 'ada'), await provisioned(store, a, 'bob'), await provisioned(store, a, 'cy')]
      const eve = await provisioned(store, b, 'eve')
      const now = new Date()
      const group = (organizationId: string, displayName: string, externalId: string | null, members: string[]) =>
        store.createScimGroup({ id: crypto.randomUUID(), organizationId, displayName, externalId, members, createdAt: now, updatedAt: now, version: 1 }) as Promise<{ id: string }>
      const sales = await group(a, 'Sales', 'ext-s', [ada.id, bob.id])
      const eng = await group(a, 'Eng', null, [ada.id])
      await group(b, 'Other', null, [eve.id])
      const found = await store.groupsOfScimUsers(a, [ada.id, bob.id, cy.id, eve.id])
      check(found[ada.id]!.map((g) => g.id).join() === [eng.id, sales.id].join(), "ada's two groups, by name")
      check(found[bob.id]!.length === 1 && found[bob.id]![0]!.externalId === 'ext-s' && found[bob.id]![0]!.displayName === 'Sales', "bob's group with its externalId")
      check(found[cy.id]!.length === 0 && found[eve.id]!.length === 0, 'none for a user without, nor for another organization\'s')
      check(Object.keys(await store.groupsOfScimUsers(a, [])).length === 0, 'nothing asked, nothing answered')
    },
  },
}
