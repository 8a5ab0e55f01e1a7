/** What the plugin's adapter cases (store.ts, store-domain-cases.ts) share: a user with a session, an organization. */
import type { Adapter } from 'latchkey/server'
import type { DomainStore, LastActiveStore, OrganizationStore } from './records.js'

export type Store = Adapter & OrganizationStore & DomainStore & LastActiveStore

export function check(ok: unknown, what: string): void {
  if (!ok) throw new Error(`expected ${what}`)
}

export const day = 86_400_000

/** A user and a session of theirs, of ids no other case uses. */
export async function userWithSession(store: Store, now = Date.now()) {
  const id = `org-user-${crypto.randomUUID()}`
  const user = await store.createUser!({ id, email: `${id}@example.test`, emailVerified: new Date(now) })
  const sessionToken = `org-session-${crypto.randomUUID()}`
  await store.createSession!({ sessionToken, userId: user.id, expires: new Date(now + day) })
  return { user, sessionToken }
}

export async function organizationOf(store: Store, ownerId: string) {
  const id = crypto.randomUUID()
  const now = new Date()
  const org = await store.createOrganization({ id, name: 'Acme', slug: `acme-${id}`, logo: null, createdAt: now }, { id: crypto.randomUUID(), organizationId: id, userId: ownerId, role: 'owner', joinedAt: now })
  check(org, 'the organization made')
  return org!
}

