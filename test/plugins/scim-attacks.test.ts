/**
 * SCIM's ways in under attack (memory adapter): no, wrong and revoked tokens; one organization's
 * token on another's resources (IDOR); filter injection; huge pages; bad JSON; PATCH on read-only
 * attributes; the token routes' permission, CSRF and freshness; addresses the IdP does not vouch for.
 * Every refusal is a clear 4xx SCIM error and changes nothing.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { plugins, scimApp, unique } from './scim-support.js'

const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const core = 'urn:ietf:params:scim:schemas:core:2.0:User'

async function world(options?: Parameters<typeof scimApp>[1]) {
  const adapter = MemoryAdapter({ plugins })
  const app = scimApp(adapter, options)
  const a = await app.organization()
  const b = await app.organization()
  const mail = `u-${unique()}@example.com`
  const user = await (await app.call(b.token, 'POST', '/Users', { schemas: [core], userName: mail, emails: [{ value: mail, primary: true }] })).json()
  return { adapter, app, a, b, user }
}

const error = async (res: Response, status: number, scimType?: string) => {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/)
  const body = await res.json()
  expect(body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error'])
  expect(body.status).toBe(String(status))
  if (scimType) expect(body.scimType).toBe(scimType)
  return body
}

describe('SCIM attacks', () => {
  it('no token, a wrong one, a malformed one, a revoked one: 401, one answer', async () => {
    const { app, a } = await world()
    await error(await app.call(null, 'GET', '/Users'), 401)
    await error(await app.call(`lks_${'x'.repeat(43)}`, 'GET', '/Users'), 401)
    await error(await app.call('short', 'GET', '/Users'), 401)
    const basic = await app.call(null, 'GET', '/Users', undefined, { authorization: `Basic ${btoa('a:b')}` })
    expect(basic.headers.get('www-authenticate')).toBe('Bearer realm="scim"')
    expect((await app.post(a.owner.jar, `/scim-tokens/${a.id}`, { action: 'revoke', id: a.tokenId })).status).toBe(200)
    const revoked = await error(await app.call(a.token, 'GET', '/Users'), 401)
    expect(JSON.stringify(revoked)).not.toContain(a.token)
  })

  it("organization A's token never reaches B's users or groups, nor puts B's users in its groups", async () => {
    const { app, a, b, user } = await world()
    await error(await app.call(a.token, 'GET', `/Users/${user.id}`), 404)
    await error(await app.call(a.token, 'PATCH', `/Users/${user.id}`, { schemas: [patchOp], Operations: [{ op: 'replace', value: { active: false } }] }), 404)
    await error(await app.call(a.token, 'PUT', `/Users/${user.id}`, { schemas: [core], userName: 'x@example.com', active: false }), 404)
    await error(await app.call(a.token, 'DELETE', `/Users/${user.id}`), 404)
    expect((await (await app.call(a.token, 'GET', `/Users?filter=${encodeURIComponent(`id eq "${user.id}"`)}`)).json()).totalResults).toBe(0)
    expect((await (await app.call(a.token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${user.userName}"`)}`)).json()).totalResults).toBe(0)
    const group = await (await app.call(a.token, 'POST', '/Groups', { displayName: 'G', members: [{ value: user.id }] })).json()
    expect(group.members).toEqual([])
    const bGroup = await (await app.call(b.token, 'POST', '/Groups', { displayName: 'G' })).json()
    await error(await app.call(a.token, 'GET', `/Groups/${bGroup.id}`), 404)
    await error(await app.call(a.token, 'DELETE', `/Groups/${bGroup.id}`), 404)
    // Still active, still B's.
    expect((await (await app.call(b.token, 'GET', `/Users/${user.id}`)).json()).active).toBe(true)
    // A's admin cannot list or revoke B's tokens.
    expect((await app.owner({ id: b.id, owner: a.owner })).status).toBe(404)
    expect((await a.owner.jar.get(`/auth/scim-tokens/${b.id}`)).status).toBe(404)
    expect((await app.post(a.owner.jar, `/scim-tokens/${b.id}`, { action: 'revoke', id: b.tokenId })).status).toBe(404)
    expect((await app.call(b.token, 'GET', '/Users')).status).toBe(200)
  })

  it('filter injection and bad filters: 400 invalidFilter, never a wider match', async () => {
    const { app, b } = await world()
    for (const filter of [
      'userName eq "x" or "1" eq "1"',
      'userName eq x',
      "userName eq 'x' OR 1=1 --",
      'password pr',
      'nosuchattribute eq "x"',
      'urn:example:other:userName eq "x"',
      'userName',
      'userName eq "x") or (userName pr',
      'emails[type eq "work" and emails[value pr]]',
      'active gt true',
      `${'('.repeat(20)}userName pr${')'.repeat(20)}`,
      `userName eq "${'x'.repeat(1200)}"`,
      '',
    ]) {
      const res = await app.call(b.token, 'GET', `/Users?filter=${encodeURIComponent(filter)}`)
      if (filter === '') expect(res.status).toBe(200)
      else await error(res, 400, 'invalidFilter')
    }
    // An escaped quote stays inside the string: no match, no error.
    const quoted = await app.call(b.token, 'GET', `/Users?filter=${encodeURIComponent('userName eq "x\\" or userName pr \\""')}`)
    expect((await quoted.json()).totalResults).toBe(0)
  })

  it('huge and bad pages: count cut to maxResults, bad numbers refused', async () => {
    const { app, b } = await world()
    for (let i = 0; i < 3; i++) await app.call(b.token, 'POST', '/Users', { userName: `p${i}-${unique()}@example.com` })
    const all = await (await app.call(b.token, 'GET', '/Users?count=100000000&startIndex=-5')).json()
    expect(all.startIndex).toBe(1)
    expect(all.itemsPerPage).toBe(4)
    const small = scimApp(MemoryAdapter({ plugins }), { maxResults: 2 })
    const o = await small.organization()
    for (let i = 0; i < 3; i++) await small.call(o.token, 'POST', '/Users', { userName: `q${i}-${unique()}@example.com` })
    const cut = await (await small.call(o.token, 'GET', '/Users?count=1000')).json()
    expect([cut.itemsPerPage, cut.totalResults]).toEqual([2, 3])
    const second = await (await small.call(o.token, 'GET', '/Users?startIndex=3&count=2')).json()
    expect(second.itemsPerPage).toBe(1)
    expect((await (await small.call(o.token, 'GET', '/Users?count=0')).json()).Resources).toEqual([])
    for (const q of ['count=abc', 'startIndex=1e309', 'count=1.5', `count=${'9'.repeat(40)}`]) await error(await app.call(b.token, 'GET', `/Users?${q}`), 400, 'invalidValue')
  })

  it('bad bodies: malformed JSON, arrays, another content type, too large, wrong types: 4xx, nothing made', async () => {
    const { app, b } = await world()
    const before = (await (await app.call(b.token, 'GET', '/Users')).json()).totalResults
    await error(await app.call(b.token, 'POST', '/Users', '{"userName": "x@example.com"'), 400, 'invalidSyntax')
    await error(await app.call(b.token, 'POST', '/Users', '[]'), 400, 'invalidSyntax')
    await error(await app.call(b.token, 'POST', '/Users', 'userName=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415)
    await error(await app.call(b.token, 'POST', '/Users', JSON.stringify({ userName: 'big@example.com', displayName: 'x'.repeat(2_000_000) })), 413)
    await error(await app.call(b.token, 'POST', '/Users', { userName: 42 }), 400, 'invalidValue')
    await error(await app.call(b.token, 'POST', '/Users', { userName: 'no-address' }), 400, 'invalidValue')
    await error(await app.call(b.token, 'POST', '/Users', { userName: 'y@example.com', active: 'maybe' }), 400, 'invalidValue')
    await error(await app.call(b.token, 'POST', '/Users', { userName: 'y@example.com', name: 'not an object' }), 400, 'invalidValue')
    await error(await app.call(b.token, 'POST', '/Nope', {}), 404)
    await error(await app.call(b.token, 'DELETE', '/Users'), 405)
    expect((await (await app.call(b.token, 'GET', '/Users')).json()).totalResults).toBe(before)
  })

  it('PATCH on read-only attributes, unknown paths and malformed operations: 400, nothing changed', async () => {
    const { app, b, user } = await world()
    const bad: Array<[object, string]> = [
      [{ op: 'replace', path: 'id', value: 'mine' }, 'mutability'],
      [{ op: 'replace', value: { id: 'another-id' } }, 'mutability'],
      [{ op: 'replace', path: 'meta.created', value: '2000-01-01T00:00:00Z' }, 'mutability'],
      [{ op: 'add', path: 'groups', value: [{ value: 'g' }] }, 'mutability'],
      [{ op: 'replace', path: 'nosuch', value: 'x' }, 'invalidPath'],
      [{ op: 'replace', path: 'name.nosuch', value: 'x' }, 'invalidPath'],
      [{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }, 'invalidPath'],
      [{ op: 'replace', path: 'emails[type pr].value', value: 'x' }, 'noTarget'],
      [{ op: 'remove' }, 'noTarget'],
      [{ op: 'move', path: 'userName', value: 'x' }, 'invalidSyntax'],
      [{ op: 'replace', path: 'userName', value: '' }, 'invalidValue'],
    ]
    for (const [operation, scimType] of bad) {
      // A good operation first: all or none.
      await error(await app.call(b.token, 'PATCH', `/Users/${user.id}`, { schemas: [patchOp], Operations: [{ op: 'replace', path: 'displayName', value: 'Changed' }, operation] }), 400, scimType)
    }
    await error(await app.call(b.token, 'PATCH', `/Users/${user.id}`, { schemas: ['urn:wrong'], Operations: [] }), 400, 'invalidSyntax')
    await error(await app.call(b.token, 'PATCH', `/Users/${user.id}`, { schemas: [patchOp], Operations: Array.from({ length: 101 }, () => ({ op: 'replace', path: 'title', value: 't' })) }), 400, 'invalidSyntax')
    const after = await (await app.call(b.token, 'GET', `/Users/${user.id}`)).json()
    expect(after.displayName).toBeUndefined()
    expect(after.meta.version).toBe(user.meta.version)
    expect(after.id).toBe(user.id)
  })

  it('conflicts: a userName twice (any case), a group name twice: 409 uniqueness', async () => {
    const { app, b, user } = await world()
    await error(await app.call(b.token, 'POST', '/Users', { userName: user.userName.toUpperCase(), emails: [{ value: `other-${unique()}@example.com` }] }), 409, 'uniqueness')
    await app.call(b.token, 'POST', '/Groups', { displayName: 'Admins' })
    await error(await app.call(b.token, 'POST', '/Groups', { displayName: 'ADMINS' }), 409, 'uniqueness')
  })

  it("an address the IdP does not vouch for: unproven, and never merged into someone's account; one it vouches for: verified and linked", async () => {
    const { adapter, app, b } = await world()
    const someone = await app.person('someone')
    const email = `${someone.id}@example.com`
    await error(await app.call(b.token, 'POST', '/Users', { userName: email }), 409, 'uniqueness')
    const fresh = `new-${unique()}@example.com`
    await app.call(b.token, 'POST', '/Users', { userName: fresh })
    expect((await adapter.getUserByEmail!(fresh))?.emailVerified).toBeNull()

    const vouching = scimApp(adapter, { verifiedEmails: ({ email }) => email.endsWith('@example.com') })
    const o = await vouching.organization()
    const linked = await vouching.call(o.token, 'POST', '/Users', { userName: email })
    expect(linked.status).toBe(201)
    expect((await (await vouching.owner(o)).json()).members.some((m: { userId: string }) => m.userId === someone.id)).toBe(true)
    const other = `v-${unique()}@example.com`
    await vouching.call(o.token, 'POST', '/Users', { userName: other })
    expect((await adapter.getUserByEmail!(other))?.emailVerified).toBeInstanceOf(Date)
  })

  it('token routes: scim:manage (owner, or a role given it), CSRF, a fresh session, a secret shown once', async () => {
    const { app, a } = await world()
    const list = await (await a.owner.jar.get(`/auth/scim-tokens/${a.id}`)).json()
    expect(list.tokens).toEqual([expect.objectContaining({ id: a.tokenId, name: 'IdP' })])
    expect(JSON.stringify(list)).not.toContain(a.token)
    expect(JSON.stringify(list)).not.toMatch(/hash/i)
    const noCsrf = await a.owner.jar.postJson(`/auth/scim-tokens/${a.id}`, { action: 'create', name: 'x' })
    expect(noCsrf.status).toBe(403)
    expect((await noCsrf.json()).error).toBe('MissingCSRF')
    expect((await app.post(a.owner.jar, `/scim-tokens/${a.id}`, { action: 'revoke', id: 'nope' })).status).toBe(404)
    expect((await app.post(a.owner.jar, `/scim-tokens/${a.id}`, { action: 'create', name: '' })).status).toBe(400)
    // A plain member may not; an outsider is told the organization is not theirs.
    const outsider = await app.person('outsider')
    expect((await outsider.jar.get(`/auth/scim-tokens/${a.id}`)).status).toBe(404)
    expect((await app.post(outsider.jar, `/scim-tokens/${a.id}`, { action: 'create', name: 'x' })).status).toBe(404)
    const mail = `m-${unique()}@example.com`
    await app.call(a.token, 'POST', '/Users', { userName: mail })
    const memberId = (await (await app.owner(a)).json()).members.find((m: { email: string }) => m.email === mail).userId
    const member = await app.signIn(memberId)
    const refused = await app.post(member, `/scim-tokens/${a.id}`, { action: 'create', name: 'x' })
    expect(refused.status).toBe(403)
    expect((await refused.json()).error).toBe('OrganizationForbidden')
    expect((await (await a.owner.jar.get(`/auth/scim-tokens/${a.id}`)).json()).tokens).toHaveLength(1)
    // A day after signing in: listing and revoking still work, making a token needs a new sign-in.
    app.clock.now += 86_400_000
    const stale = await app.post(a.owner.jar, `/scim-tokens/${a.id}`, { action: 'create', name: 'late' })
    expect(stale.status).toBe(403)
    expect((await stale.json()).error).toBe('SessionNotFresh')
    expect((await (await a.owner.jar.get(`/auth/scim-tokens/${a.id}`)).json()).tokens).toHaveLength(1)
  })

  it('group roles: owner refused, bad mappings refused, nothing made; never above the creator, even after they are demoted', async () => {
    const { app, a } = await world()
    const tokens = async () => (await (await a.owner.jar.get(`/auth/scim-tokens/${a.id}`)).json()).tokens.length
    const before = await tokens()
    for (const groupRoles of [{ G: 'owner' }, { G: 'nosuchrole' }, { G: 7 }, ['admin'], 'admin', { '': 'admin' }, { ['x'.repeat(300)]: 'admin' }, { 'a\u0000b': 'admin' }, Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`g${i}`, 'member']))]) {
      const { res, body } = await app.mappedToken(a, groupRoles)
      expect(res.status).toBe(400)
      expect(body.error).toBe('InvalidRequest')
    }
    expect(await tokens()).toBe(before)
    // A role that may manage tokens but ranks as member cannot map a group to admin.
    const mail = `it-${unique()}@example.com`
    const resource = await (await app.call(a.token, 'POST', '/Users', { userName: mail })).json()
    const itId = (await (await app.owner(a)).json()).members.find((m: { email: string }) => m.email === mail).userId
    expect((await app.post(a.owner.jar, `/organizations/${a.id}`, { action: 'set-role', userId: itId, role: 'it' })).status).toBe(200)
    const it = await app.signIn(itId)
    const above = await app.mappedToken(a, { G: 'admin' }, it)
    expect(above.res.status).toBe(403)
    expect(above.body.error).toBe('OrganizationForbidden')
    expect(await tokens()).toBe(before)
    const ok = await app.mappedToken(a, { G: 'editor' }, it)
    expect(ok.res.status).toBe(200)
    // An admin's token mapping to admin: once the admin is demoted, it gives admin no more.
    expect((await app.post(a.owner.jar, `/organizations/${a.id}`, { action: 'set-role', userId: itId, role: 'admin' })).status).toBe(200)
    const adminToken = (await app.mappedToken(a, { Admins: 'admin' }, it)).body.token
    expect((await app.post(a.owner.jar, `/organizations/${a.id}`, { action: 'set-role', userId: itId, role: 'member' })).status).toBe(200)
    const other = `o-${unique()}@example.com`
    const target = await (await app.call(adminToken, 'POST', '/Users', { userName: other })).json()
    const targetId = (await (await app.owner(a)).json()).members.find((m: { email: string }) => m.email === other).userId
    await app.call(adminToken, 'POST', '/Groups', { displayName: 'Admins', members: [{ value: target.id }, { value: resource.id }] })
    expect(await app.roleOf(a, targetId)).toBe('member')
    expect(await app.roleOf(a, itId)).toBe('member')
  })

  it("group roles: A's mapped token never changes a role in B; an owner in a mapped group stays owner", async () => {
    const { adapter, app, a, b, user } = await world()
    // A's owner cannot make a mapped token in B.
    const across = await app.mappedToken({ id: b.id, owner: a.owner }, { G: 'member' })
    expect(across.res.status).toBe(404)
    expect(across.body.error).toBe('OrganizationNotFound')
    const mapped = (await app.mappedToken(a, { G: 'admin' })).body.token
    const bUserId = (await adapter.getUserByEmail!(user.userName))!.id
    const made = await (await app.call(mapped, 'POST', '/Groups', { displayName: 'G', members: [{ value: user.id }] })).json()
    expect(made.members).toEqual([])
    expect(await app.roleOf(b, bUserId)).toBe('member')
    // The owner, linked by a vouching IdP, then put in a group mapped to admin: still owner; out of it: still owner.
    const vouching = scimApp(adapter, { verifiedEmails: true })
    const o = await vouching.organization()
    const token = (await vouching.mappedToken(o, { Staff: 'admin' })).body.token
    const owner = await (await vouching.call(token, 'POST', '/Users', { userName: `${o.owner.id}@example.com` })).json()
    const group = await (await vouching.call(token, 'POST', '/Groups', { displayName: 'Staff', members: [{ value: owner.id }] })).json()
    expect(await vouching.roleOf(o, o.owner.id)).toBe('owner')
    await vouching.call(token, 'DELETE', `/Groups/${group.id}`)
    expect(await vouching.roleOf(o, o.owner.id)).toBe('owner')
  })
})
