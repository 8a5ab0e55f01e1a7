/** The verified domains' cases for latchkey/adapter-test, run against every adapter made with the plugin. */
import { check, organizationOf, userWithSession, type Store } from './store-case-helpers.js'

const domainOf = (organizationId: string, domain: string, challengeHash = `hash-${crypto.randomUUID()}`) => ({
  id: crypto.randomUUID(),
  organizationId,
  domain,
  role: 'member',
  autoJoin: false,
  verifiedAt: null,
  createdAt: new Date(),
  challengeHash,
})

export const domainCases: Record<string, (store: Store) => Promise<void>> = {
  'a domain is claimed pending by several organizations, verified by one only, and found by name once verified': async (store) => {
    const { user } = await userWithSession(store)
    const [a, b] = [await organizationOf(store, user.id), await organizationOf(store, user.id)]
    const domain = `d-${crypto.randomUUID()}.example`
    const ofA = await store.addDomain(domainOf(a.id, domain, 'first'))
    check(!('challengeHash' in ofA) && ofA.verifiedAt === null && ofA.autoJoin === false, 'a pending claim, without its hash')
    const again = await store.addDomain({ ...domainOf(a.id, domain, 'second'), id: crypto.randomUUID() })
    check(again.id === ofA.id && (await store.getDomain(a.id, ofA.id))?.challengeHash === 'second', 'a claim made again: the same record, a new challenge')
    const ofB = await store.addDomain(domainOf(b.id, domain))
    check(ofB.id !== ofA.id, 'another organization may claim it while pending')
    check((await store.verifiedDomain(domain)) === null, 'no organization for a pending domain')
    check((await store.getDomain(b.id, ofA.id)) === null, "another organization's domain is not found through one's own")
    check((await store.verifyDomain(b.id, ofA.id, new Date())) === null, "another organization's domain not verified through one's own")
    const verified = await store.verifyDomain(a.id, ofA.id, new Date())
    check(verified !== null && verified !== 'taken' && verified.verifiedAt instanceof Date, 'verified')
    check((await store.getDomain(a.id, ofA.id))?.challengeHash === null, 'the challenge dropped once verified')
    check((await store.verifyDomain(b.id, ofB.id, new Date())) === 'taken', 'the second organization refused')
    const found = await store.verifiedDomain(domain)
    check(found?.organization.id === a.id && found.organization.name === a.name && found.id === ofA.id, 'the verifying organization found by the domain')
    const kept = await store.addDomain({ ...domainOf(a.id, domain, 'third'), id: crypto.randomUUID() })
    check(kept.verifiedAt !== null && (await store.getDomain(a.id, ofA.id))?.challengeHash === null, 'adding a verified domain again changes nothing')
    check((await store.listDomains(a.id)).map((d) => d.domain).join() === domain, 'listed for its organization')
    check((await store.removeDomain(b.id, ofA.id)) === null, "another organization's domain not removed")
    check((await store.removeDomain(a.id, ofA.id))?.id === ofA.id, 'removed')
    check((await store.verifiedDomain(domain)) === null, 'gone from the lookup')
    check((await store.verifyDomain(b.id, ofB.id, new Date())) !== 'taken', 'free for another organization once removed')
  },
  'joining by a verified domain gives its role once; a pending or removed domain, or its organization deleted, gives nothing': async (store) => {
    const { user: owner } = await userWithSession(store)
    const { user } = await userWithSession(store)
    const org = await organizationOf(store, owner.id)
    const domain = `j-${crypto.randomUUID()}.example`
    const claim = await store.addDomain(domainOf(org.id, domain))
    const join = () => store.joinByDomain({ organizationId: org.id, domain, userId: user.id, memberId: crypto.randomUUID(), now: new Date() })
    check((await join()) === null, 'a pending domain gives no membership')
    await store.verifyDomain(org.id, claim.id, new Date())
    const changed = await store.updateDomain(org.id, claim.id, { role: 'admin', autoJoin: true })
    check(changed?.role === 'admin' && changed.autoJoin === true, 'the role and auto-join changed')
    check((await store.updateDomain(org.id, claim.id, { autoJoin: false }))?.role === 'admin', 'a change of one keeps the other')
    const [first, second] = await Promise.all([join(), join()])
    check([first, second].filter(Boolean).length === 1, 'one membership of two at once')
    check((first ?? second)!.role === 'admin' && (await store.getMember(org.id, user.id))?.role === 'admin', "the domain's role")
    check((await join()) === null, 'a member already: nothing')
    await store.removeMember(org.id, user.id)
    await store.removeDomain(org.id, claim.id)
    check((await join()) === null, 'a removed domain gives nothing')
    const again = await store.addDomain(domainOf(org.id, domain))
    await store.verifyDomain(org.id, again.id, new Date())
    check(await store.deleteOrganization(org.id), 'the organization deleted')
    check((await store.verifiedDomain(domain)) === null && (await join()) === null, 'its domains gone with it')
  },
}
