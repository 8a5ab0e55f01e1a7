/** The last active membership's cases for latchkey/adapter-test (migration 3), run against every adapter made with the plugin. */
import { check, organizationOf, userWithSession, type Store } from './store-case-helpers.js'

export const lastActiveCases: Record<string, (store: Store) => Promise<void>> = {
  "a user's last active membership is theirs only, live: gone once removed, the organization deleted, or set to none": async (store) => {
    const { user: owner } = await userWithSession(store)
    const { user } = await userWithSession(store)
    const [a, b] = [await organizationOf(store, owner.id), await organizationOf(store, owner.id)]
    const ownerOfA = (await store.getMember(a.id, owner.id))!
    check((await store.lastActiveMember(user.id)) === null, 'none at first')
    await store.setLastActiveMember(user.id, ownerOfA.id)
    check((await store.lastActiveMember(user.id)) === null, "another user's membership never stored as theirs")
    const inA = (await store.addMember({ id: crypto.randomUUID(), organizationId: a.id, userId: user.id, role: 'member', joinedAt: new Date() }))!.member
    const inB = (await store.addMember({ id: crypto.randomUUID(), organizationId: b.id, userId: user.id, role: 'admin', joinedAt: new Date() }))!.member
    await store.setLastActiveMember(user.id, inA.id)
    check((await store.lastActiveMember(user.id))?.organizationId === a.id, 'the membership remembered')
    await store.setLastActiveMember(user.id, inB.id)
    const last = await store.lastActiveMember(user.id)
    check(last?.id === inB.id && last.role === 'admin' && last.userId === user.id, 'the newer one replaces it, with its role')
    await store.setLastActiveMember(user.id, `member-${crypto.randomUUID()}`)
    check((await store.lastActiveMember(user.id))?.id === inB.id, 'a membership that is not leaves it as it was')
    await store.setLastActiveMember(owner.id, ownerOfA.id)
    await store.setMemberRole(b.id, user.id, 'member')
    check((await store.lastActiveMember(user.id))?.role === 'member', 'the role read live')
    await store.removeMember(b.id, user.id)
    check((await store.lastActiveMember(user.id)) === null, 'none once removed')
    await store.addMember({ id: crypto.randomUUID(), organizationId: b.id, userId: user.id, role: 'member', joinedAt: new Date() })
    check((await store.lastActiveMember(user.id)) === null, 'a new membership after removal does not bring it back')
    await store.setLastActiveMember(user.id, inA.id)
    await store.setLastActiveMember(user.id, null)
    check((await store.lastActiveMember(user.id)) === null, 'none once set to none')
    check((await store.lastActiveMember(owner.id))?.id === ownerOfA.id, "another user's own kept")
    check(await store.deleteOrganization(a.id), 'the organization deleted')
    check((await store.lastActiveMember(owner.id)) === null, 'none once the organization is deleted')
  },
}
