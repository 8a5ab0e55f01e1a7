/**
 * SCIM beyond the resources (memory adapter): the events a configuration hears, the per-token
 * rate limit, a name or address the IdP changes later, and deprovisioning under the JWT strategy.
 * IdP requests are raw data, in Okta's and Entra's shapes.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { plugins, scimApp, unique, type AppExtras } from './scim-support.js'

const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const core = 'urn:ietf:params:scim:schemas:core:2.0:User'

function listening() {
  const heard: Array<[string, any]> = []
  const on = (name: string) => (message: unknown) => void heard.push([name, message])
  const names = ['organizationMemberAdded', 'organizationMemberRemoved', 'organizationRoleChanged', 'scimTokenCreated', 'scimTokenRevoked', 'scimUserDeactivated']
  const events = Object.fromEntries(names.map((n) => [n, on(n)])) as AppExtras['events']
  return { heard, events, named: (name: string) => heard.filter(([n]) => n === name).map(([, m]) => m) }
}

describe('SCIM events', () => {
  it('token made and revoked, member added and removed via scim with the token as actor, user deactivated', async () => {
    const { heard, events, named } = listening()
    const adapter = MemoryAdapter({ plugins })
    const app = scimApp(adapter, undefined, { events })
    const org = await app.organization()
    const [made] = named('scimTokenCreated')
    expect(made).toEqual({ organization: { id: org.id, name: 'Acme', slug: expect.any(String) }, token: { id: org.tokenId, name: 'IdP', createdAt: expect.any(Date) }, by: { id: org.owner.id, email: `${org.owner.id}@example.com` } })
    expect(JSON.stringify(heard)).not.toContain(org.token)
    heard.length = 0

    const mail = `ev-${unique()}@example.com`
    const user = await (await app.call(org.token, 'POST', '/Users', { schemas: [core], userName: mail })).json()
    const userId = (await adapter.getUserByEmail!(mail))!.id
    const by = { id: org.tokenId, name: 'IdP' }
    expect(heard).toEqual([['organizationMemberAdded', { organization: expect.objectContaining({ id: org.id }), member: { userId, role: 'member' }, via: 'scim', by }]])
    heard.length = 0
    // A PATCH that changes nothing of membership says nothing.
    await app.call(org.token, 'PATCH', `/Users/${user.id}`, { schemas: [patchOp], Operations: [{ op: 'replace', path: 'title', value: 'Eng' }] })
    expect(heard).toEqual([])
    // Okta's deactivation.
    await app.call(org.token, 'PATCH', `/Users/${user.id}`, { schemas: [patchOp], Operations: [{ op: 'replace', value: { active: false } }] })
    expect(heard.map(([n]) => n)).toEqual(['organizationMemberRemoved', 'scimUserDeactivated'])
    expect(named('organizationMemberRemoved')[0]).toEqual({ organization: expect.objectContaining({ id: org.id }), member: { userId, role: 'member' }, left: false, via: 'scim', by })
    expect(named('scimUserDeactivated')[0]).toEqual({ organization: expect.objectContaining({ id: org.id }), user: { id: user.id, userId, userName: mail }, deleted: false, by })
    heard.length = 0
    // Deleting an inactive user: nothing more to say.
    expect((await app.call(org.token, 'DELETE', `/Users/${user.id}`)).status).toBe(204)
    expect(heard).toEqual([])
    // An active user DELETEd (Entra): removed and deactivated, deleted: true.
    const other = await (await app.call(org.token, 'POST', '/Users', { schemas: [core], userName: `ev2-${unique()}@example.com` })).json()
    heard.length = 0
    await app.call(org.token, 'DELETE', `/Users/${other.id}`)
    expect(heard.map(([n]) => n)).toEqual(['organizationMemberRemoved', 'scimUserDeactivated'])
    expect(named('scimUserDeactivated')[0].deleted).toBe(true)
    heard.length = 0

    expect((await app.post(org.owner.jar, `/scim-tokens/${org.id}`, { action: 'revoke', id: org.tokenId })).status).toBe(200)
    expect(heard).toEqual([['scimTokenRevoked', { organization: expect.objectContaining({ id: org.id }), token: { id: org.tokenId, name: 'IdP', createdAt: expect.any(Date) }, by: { id: org.owner.id, email: expect.any(String) } }]])
    // A revoke of no token says nothing.
    heard.length = 0
    await app.post(org.owner.jar, `/scim-tokens/${org.id}`, { action: 'revoke', id: org.tokenId })
    expect(heard).toEqual([])
  })

  it('linking an existing member adds no membership and says nothing of one', async () => {
    const { events, named } = listening()
    const adapter = MemoryAdapter({ plugins })
    const app = scimApp(adapter, { verifiedEmails: true }, { events })
    const org = await app.organization()
    // The owner provisioned by their own IdP: already a member, so no event, and no role change.
    await app.call(org.token, 'POST', '/Users', { schemas: [core], userName: `${org.owner.id}@example.com` })
    expect(named('organizationMemberAdded').filter((m) => m.via === 'scim')).toEqual([])
    expect((await (await app.owner(org)).json()).members.find((m: { userId: string }) => m.userId === org.owner.id).role).toBe('owner')
  })
})

describe("a later change of a user's name or address from the IdP", () => {
  it('the name always; the address not where the IdP is not vouched for', async () => {
    const adapter = MemoryAdapter({ plugins })
    const app = scimApp(adapter)
    const org = await app.organization()
    const mail = `n-${unique()}@example.com`
    const user = await (await app.call(org.token, 'POST', '/Users', { schemas: [core], userName: mail, name: { givenName: 'Ada', familyName: 'Byron' } })).json()
    const id = (await adapter.getUserByEmail!(mail))!.id
    expect((await adapter.getUser!(id))!.name).toBe('Ada Byron')
    // Okta's PUT of the whole user, a new family name and a new address.
    const moved = `moved-${unique()}@example.com`
    const put = await app.call(org.token, 'PUT', `/Users/${user.id}`, { schemas: [core], userName: mail, name: { givenName: 'Ada', familyName: 'Lovelace' }, emails: [{ primary: true, value: moved }], active: true })
    expect(put.status).toBe(200)
    const after = (await adapter.getUser!(id))!
    expect(after.name).toBe('Ada Lovelace')
    expect(after.email).toBe(mail)
    expect((await put.json()).emails[0].value).toBe(moved)
  })

  it('the address where the IdP vouches (Entra\'s PATCH), verified; never onto one another account holds: 409, nothing changed', async () => {
    const adapter = MemoryAdapter({ plugins })
    const app = scimApp(adapter, { verifiedEmails: ({ email }) => email.endsWith('@contoso.example') })
    const org = await app.organization()
    const upn = `g-${unique()}@contoso.example`
    const user = await (await app.call(org.token, 'POST', '/Users', { schemas: [core], userName: upn, emails: [{ primary: true, type: 'work', value: upn }], displayName: 'Grace' })).json()
    const id = (await adapter.getUserByEmail!(upn))!.id
    const next = `hopper-${unique()}@contoso.example`
    const patched = await app.call(org.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [patchOp],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: next },
        { op: 'Replace', path: 'displayName', value: 'Grace Hopper' },
      ],
    })
    expect(patched.status).toBe(200)
    const after = (await adapter.getUser!(id))!
    expect([after.email, after.name]).toEqual([next, 'Grace Hopper'])
    expect(after.emailVerified).toBeInstanceOf(Date)
    // An address the IdP does not vouch for: the SCIM resource changes, the account keeps its address.
    const elsewhere = `x-${unique()}@example.com`
    expect((await app.call(org.token, 'PATCH', `/Users/${user.id}`, { schemas: [patchOp], Operations: [{ op: 'Replace', path: 'emails[type eq "work"].value', value: elsewhere }] })).status).toBe(200)
    expect((await adapter.getUser!(id))!.email).toBe(next)
    // Onto another account's address: refused, and neither the resource nor the account changed.
    const taken = `taken-${unique()}@contoso.example`
    await adapter.createUser!({ id: `other-${unique()}`, email: taken, emailVerified: new Date() })
    const before = await (await app.call(org.token, 'GET', `/Users/${user.id}`)).json()
    const refused = await app.call(org.token, 'PATCH', `/Users/${user.id}`, { schemas: [patchOp], Operations: [{ op: 'Replace', path: 'emails[type eq "work"].value', value: taken }, { op: 'Replace', path: 'displayName', value: 'Someone' }] })
    expect(refused.status).toBe(409)
    expect((await refused.json()).scimType).toBe('uniqueness')
    expect(await (await app.call(org.token, 'GET', `/Users/${user.id}`)).json()).toEqual(before)
    expect([(await adapter.getUser!(id))!.email, (await adapter.getUser!(id))!.name]).toEqual([next, 'Grace Hopper'])
  })
})

describe('deprovisioning under the JWT strategy', () => {
  it('the organization is gone from the session at the next read; the session stays (a JWT cannot be deleted); provisioned again, the old claim does not come back', async () => {
    const adapter = MemoryAdapter({ plugins })
    const app = scimApp(adapter, undefined, { strategy: 'jwt' })
    const org = await app.organization()
    const mail = `jwt-${unique()}@example.com`
    const user = await (await app.call(org.token, 'POST', '/Users', { schemas: [core], userName: mail })).json()
    const id = (await adapter.getUserByEmail!(mail))!.id
    const jar = await app.signIn(id)
    expect((await app.post(jar, '/organizations', { action: 'switch', organizationId: org.id })).status).toBe(200)
    expect((await jar.session()).organization).toMatchObject({ id: org.id, role: 'member' })
    await app.call(org.token, 'PATCH', `/Users/${user.id}`, { schemas: [patchOp], Operations: [{ op: 'replace', value: { active: false } }] })
    const after = await jar.session()
    expect(after.user.id ?? after.user.email).toBeTruthy()
    expect(after.organization).toBeUndefined()
    // Active again: a new membership, so the token's old claim names nothing; the user switches anew.
    await app.call(org.token, 'PATCH', `/Users/${user.id}`, { schemas: [patchOp], Operations: [{ op: 'replace', value: { active: true } }] })
    expect((await jar.session()).organization).toBeUndefined()
  })
})

describe('SCIM role events', () => {
  it('a mapped group fires organizationRoleChanged via scim, there and back', async () => {
    const { heard, events, named } = listening()
    const app = scimApp(MemoryAdapter({ plugins }), undefined, { events })
    const org = await app.organization()
    const mapped = (await app.mappedToken(org, { Leads: 'admin' })).body
    const mail = `lead-${unique()}@example.com`
    const user = await (await app.call(mapped.token, 'POST', '/Users', { userName: mail })).json()
    const userId = (await (await app.owner(org)).json()).members.find((m: { email: string }) => m.email === mail).userId
    heard.length = 0
    const group = await (await app.call(mapped.token, 'POST', '/Groups', { displayName: 'Leads', members: [{ value: user.id }] })).json()
    const by = { id: mapped.id, name: 'Mapped' }
    expect(named('organizationRoleChanged')).toEqual([{ organization: expect.objectContaining({ id: org.id }), member: { userId, role: 'admin' }, from: 'member', via: 'scim', by }])
    await app.call(mapped.token, 'PATCH', `/Groups/${group.id}`, { schemas: [patchOp], Operations: [{ op: 'Remove', path: 'members', value: [{ value: user.id }] }] })
    expect(named('organizationRoleChanged')[1]).toEqual({ organization: expect.objectContaining({ id: org.id }), member: { userId, role: 'member' }, from: 'admin', via: 'scim', by })
    expect(heard).toHaveLength(2)
  })
})

describe('SCIM rate limit', () => {
  it('counts per token: past the limit a SCIM 429 with Retry-After, nothing done; another token unaffected; the window passes', async () => {
    const adapter = MemoryAdapter({ plugins })
    const app = scimApp(adapter, undefined, { rateLimit: { rules: { scimRequest: [{ per: 'account', limit: 3, windowSeconds: 60 }] } } })
    const a = await app.organization()
    const b = await app.organization()
    for (let i = 0; i < 3; i++) expect((await app.call(a.token, 'GET', '/Users')).status).toBe(200)
    const mail = `rl-${unique()}@example.com`
    const refused = await app.call(a.token, 'POST', '/Users', { schemas: [core], userName: mail })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('content-type')).toMatch(/^application\/scim\+json/)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60)
    const body = await refused.json()
    expect(body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '429' })
    expect(body.detail).toMatch(/SCIM token/)
    expect(await adapter.getUserByEmail!(mail)).toBeNull()
    // The discovery endpoints take no token and are not counted per token.
    expect((await app.call(a.token, 'GET', '/ServiceProviderConfig')).status).toBe(200)
    expect((await app.call(b.token, 'GET', '/Users')).status).toBe(200)
    // Unknown tokens are refused before counting: they never use up a real token's allowance.
    app.clock.now += 61_000
    for (let i = 0; i < 5; i++) expect((await app.call(`lks_${'y'.repeat(43)}`, 'GET', '/Users')).status).toBe(401)
    expect((await app.call(a.token, 'POST', '/Users', { schemas: [core], userName: mail })).status).toBe(201)
  })

  it('is on by default and generous: a burst of requests from one token passes', async () => {
    const app = scimApp(MemoryAdapter({ plugins }), undefined, { rateLimit: {} })
    const org = await app.organization()
    const answers = await Promise.all(Array.from({ length: 200 }, () => app.call(org.token, 'GET', '/Users?count=1')))
    expect(answers.every((r) => r.status === 200)).toBe(true)
  })
})

describe('listing users', () => {
  it("reads a page's groups in one call, whatever the page's size, and shows each user's own", async () => {
    const adapter = MemoryAdapter({ plugins }) as ReturnType<typeof MemoryAdapter> & Record<string, (...args: any[]) => Promise<unknown>>
    const calls = { one: 0, many: 0 }
    const [one, many] = [adapter.groupsOfScimUser!, adapter.groupsOfScimUsers!]
    adapter.groupsOfScimUser = (...args) => (calls.one++, one(...args))
    adapter.groupsOfScimUsers = (...args) => (calls.many++, many(...args))
    const app = scimApp(adapter)
    const org = await app.organization()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await (await app.call(org.token, 'POST', '/Users', { userName: `l${i}-${unique()}@example.com` })).json()).id)
    await app.call(org.token, 'POST', '/Groups', { displayName: 'Odd', members: [{ value: ids[1] }, { value: ids[3] }] })
    Object.assign(calls, { one: 0, many: 0 })
    const page = await (await app.call(org.token, 'GET', '/Users?startIndex=1&count=5')).json()
    expect(calls).toEqual({ one: 0, many: 1 })
    const shown = Object.fromEntries(page.Resources.map((r: { id: string; groups: Array<{ display: string }> }) => [r.id, r.groups.map((g) => g.display).join()]))
    expect(shown).toEqual(Object.fromEntries(ids.map((id, i) => [id, i % 2 ? 'Odd' : ''])))
    // Groups excluded: no call at all.
    await app.call(org.token, 'GET', '/Users?excludedAttributes=groups')
    expect(calls).toEqual({ one: 0, many: 1 })
  })
})
