/**
 * SCIM (src/plugins/scim) over HTTP against a real handler, on the memory adapter and on
 * PostgreSQL (DATABASE_URL). The IdPs' requests are written here as data, in the shapes of Okta's and Microsoft Entra ID's provisioning
 * documentation (their sequences, capitalised op names, string booleans, filter paths), and
 * sent as raw HTTP: none of it is built with this project's code. scim-scimmy.test.ts checks the
 * answers against another implementation, SCIMMY.
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { Adapter } from '../../src/core/types.js'
import { plugins, scimApp, unique } from './scim-support.js'
import { pluginStores } from '../support/plugin-stores.js'

const closers: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const close of closers) await close()
})

const stores = pluginStores<Adapter>(plugins, 'SCIM', 'test/plugins/scim.test.ts', closers)

const scimJson = /^application\/scim\+json/
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const errorSchema = 'urn:ietf:params:scim:api:messages:2.0:Error'

for (const [storeName, makeStore] of Object.entries(stores)) {
  describe(`SCIM on ${storeName}`, () => {
    const setup = async (options?: Parameters<typeof scimApp>[1]) => scimApp(await makeStore(), options)

    it("Okta's sequence: test connection, look up by userName, create, deactivate (sessions end), reactivate, groups", async () => {
      const app = await setup()
      const org = await app.organization()
      const mail = `okta-${unique()}@example.com`
      // Test connection.
      const probe = await app.call(org.token, 'GET', '/Users?startIndex=1&count=2')
      expect(probe.status).toBe(200)
      expect(probe.headers.get('content-type')).toMatch(scimJson)
      expect(await probe.json()).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] })
      // Does the user exist?
      const lookup = await app.call(org.token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${mail}"`)}&startIndex=1&count=100`)
      expect((await lookup.json()).totalResults).toBe(0)
      // Create.
      const created = await app.call(org.token, 'POST', '/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: mail,
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ primary: true, value: mail, type: 'work' }],
        displayName: 'Ada Lovelace',
        locale: 'en-US',
        externalId: '00u1okta',
        groups: [],
        password: { value: 'never-stored-1' },
        active: true,
      })
      expect(created.status).toBe(201)
      const user = await created.json()
      expect(user).toMatchObject({ userName: mail, active: true, externalId: '00u1okta', name: { givenName: 'Ada', familyName: 'Lovelace' }, meta: { resourceType: 'User' } })
      expect(user.password).toBeUndefined()
      expect(created.headers.get('location')).toBe(`http://localhost:3000/auth/scim/v2/Users/${user.id}`)
      // The latchkey user is a member, their address unproven (this app's IdP does not vouch).
      const details = await (await app.owner(org)).json()
      const member = details.members.find((m: { email: string }) => m.email === mail)
      expect(member).toMatchObject({ role: 'member' })
      // They sign in and make the organization active.
      const ada = await app.signIn(member.userId)
      expect((await app.post(ada, '/organizations', { action: 'switch', organizationId: org.id })).status).toBe(200)
      expect((await ada.session()).organization).toMatchObject({ id: org.id })
      // Found by the lookup now, and by id.
      const again = await (await app.call(org.token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${mail.toUpperCase()}"`)}&startIndex=1&count=100`)).json()
      expect(again.totalResults).toBe(1)
      expect(again.Resources[0].id).toBe(user.id)
      // Deactivate: the membership and the session in the organization end at once.
      const off = await app.call(org.token, 'PATCH', `/Users/${user.id}`, { schemas: [patchOp], Operations: [{ op: 'replace', value: { active: false } }] })
      expect(off.status).toBe(200)
      expect((await off.json()).active).toBe(false)
      expect(await ada.session()).toBeNull()
      expect((await (await app.owner(org)).json()).members.some((m: { email: string }) => m.email === mail)).toBe(false)
      expect((await (await app.call(org.token, 'GET', `/Users/${user.id}`)).json()).active).toBe(false)
      // Reactivate with a PUT of the whole user, as Okta's AIW apps do.
      const on = await app.call(org.token, 'PUT', `/Users/${user.id}`, { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], id: user.id, userName: mail, name: { givenName: 'Ada', familyName: 'King' }, emails: [{ primary: true, value: mail, type: 'work' }], active: true })
      expect(on.status).toBe(200)
      expect((await on.json()).name.familyName).toBe('King')
      expect((await (await app.owner(org)).json()).members.some((m: { email: string }) => m.email === mail)).toBe(true)
      // Groups: push, rename (Okta echoes the id in the value), drop a member.
      const group = await app.call(org.token, 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Engineering', members: [{ value: user.id, display: mail }] })
      expect(group.status).toBe(201)
      const g = await group.json()
      expect(g.members.map((m: { value: string }) => m.value)).toEqual([user.id])
      const renamed = await app.call(org.token, 'PATCH', `/Groups/${g.id}`, { schemas: [patchOp], Operations: [{ op: 'replace', value: { id: g.id, displayName: 'Eng' } }] })
      expect((await renamed.json()).displayName).toBe('Eng')
      expect((await (await app.call(org.token, 'GET', `/Users/${user.id}`)).json()).groups).toEqual([expect.objectContaining({ value: g.id, display: 'Eng' })])
      const dropped = await app.call(org.token, 'PATCH', `/Groups/${g.id}`, { schemas: [patchOp], Operations: [{ op: 'remove', path: `members[value eq "${user.id}"]` }] })
      expect((await dropped.json()).members).toEqual([])
      expect((await app.call(org.token, 'DELETE', `/Groups/${g.id}`)).status).toBe(204)
    })

    it("Entra's sequence: probe, look up by externalId, create with the enterprise extension, Replace/Add paths, \"False\", DELETE", async () => {
      const app = await setup()
      const org = await app.organization()
      const upn = `entra-${unique()}@contoso.example`
      const probe = await app.call(org.token, 'GET', `/Users?filter=${encodeURIComponent('userName eq "7c3b8a1e-0000-4000-8000-000000000000"')}`)
      expect((await probe.json()).totalResults).toBe(0)
      const byExternal = await app.call(org.token, 'GET', `/Users?filter=${encodeURIComponent('externalId eq "e-42"')}`)
      expect((await byExternal.json()).totalResults).toBe(0)
      const created = await app.call(
        org.token,
        'POST',
        '/Users',
        `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],"externalId":"e-42","userName":"${upn}","active":true,"displayName":"Grace Hopper","emails":[{"primary":true,"type":"work","value":"${upn}"}],"meta":{"resourceType":"User"},"name":{"formatted":"Grace Hopper","familyName":"Hopper","givenName":"Grace"},"roles":[],"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":{"department":"Navy","manager":{"value":"m-1"}}}`,
      )
      expect(created.status).toBe(201)
      const user = await created.json()
      expect(user.schemas).toContain('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User')
      expect(user['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).toEqual({ department: 'Navy', manager: { value: 'm-1' } })
      expect((await (await app.call(org.token, 'GET', `/Users?filter=${encodeURIComponent('externalId eq "e-42"')}`)).json()).Resources[0].id).toBe(user.id)
      const patched = await app.call(org.token, 'PATCH', `/Users/${user.id}`, {
        schemas: [patchOp],
        Operations: [
          { op: 'Replace', path: 'emails[type eq "work"].value', value: `g.hopper-${upn}` },
          { op: 'Replace', path: 'name.familyName', value: 'Murray Hopper' },
          { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Research' },
          { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
          { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager', value: { value: 'm-2' } },
        ],
      })
      expect(patched.status).toBe(200)
      const p = await patched.json()
      expect(p.emails).toEqual([{ primary: true, type: 'work', value: `g.hopper-${upn}` }])
      expect(p.name).toEqual({ formatted: 'Grace Hopper', familyName: 'Murray Hopper', givenName: 'Grace' })
      expect(p.phoneNumbers).toEqual([{ type: 'mobile', value: '+1 555 0100' }])
      expect(p['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).toEqual({ department: 'Research', manager: { value: 'm-2' } })
      // A filter that is not a plain lookup is matched in full.
      const complex = await (await app.call(org.token, 'GET', `/Users?filter=${encodeURIComponent('emails[type eq "work" and value co "hopper"] and not (active eq false)')}`)).json()
      expect(complex.Resources.map((r: { id: string }) => r.id)).toEqual([user.id])
      // Deprovision with Entra's string boolean; then DELETE.
      const member = (await (await app.owner(org)).json()).members.find((m: { email: string }) => m.email === upn)
      const grace = await app.signIn(member.userId)
      await app.post(grace, '/organizations', { action: 'switch', organizationId: org.id })
      const off = await app.call(org.token, 'PATCH', `/Users/${user.id}`, { schemas: [patchOp], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] })
      expect((await off.json()).active).toBe(false)
      expect(await grace.session()).toBeNull()
      expect((await app.call(org.token, 'DELETE', `/Users/${user.id}`)).status).toBe(204)
      const gone = await app.call(org.token, 'GET', `/Users/${user.id}`)
      expect(gone.status).toBe(404)
      expect((await gone.json()).schemas).toEqual([errorSchema])
    })

    it("Entra's group sequence: create, Add members, look up excluding members, Remove members with a value list", async () => {
      const app = await setup()
      const org = await app.organization()
      const ids: string[] = []
      for (const n of ['a', 'b']) {
        const mail = `${n}-${unique()}@contoso.example`
        ids.push((await (await app.call(org.token, 'POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: mail, active: true, emails: [{ primary: true, type: 'work', value: mail }] })).json()).id)
      }
      const made = await (await app.call(org.token, 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], externalId: 'g-1', displayName: 'Sales', meta: { resourceType: 'Group' } })).json()
      const add = await app.call(org.token, 'PATCH', `/Groups/${made.id}`, { schemas: [patchOp], Operations: [{ op: 'Add', path: 'members', value: ids.map((value) => ({ value })) }] })
      expect((await add.json()).members.map((m: { value: string }) => m.value).sort()).toEqual([...ids].sort())
      const found = await (await app.call(org.token, 'GET', `/Groups?filter=${encodeURIComponent('displayName eq "sales"')}&excludedAttributes=members`)).json()
      expect(found.totalResults).toBe(1)
      expect(found.Resources[0].members).toBeUndefined()
      const member = await (await app.call(org.token, 'GET', `/Groups?filter=${encodeURIComponent(`id eq "${made.id}" and members[value eq "${ids[0]}"]`)}&excludedAttributes=members`)).json()
      expect(member.totalResults).toBe(1)
      const removed = await app.call(org.token, 'PATCH', `/Groups/${made.id}`, { schemas: [patchOp], Operations: [{ op: 'Remove', path: 'members', value: [{ value: ids[0] }] }] })
      expect((await removed.json()).members.map((m: { value: string }) => m.value)).toEqual([ids[1]])
    })

    it("groups mapped to roles, with Okta's and Entra's group PATCH shapes: the highest mapped role, back to the default on leaving", async () => {
      const app = await setup()
      const org = await app.organization()
      const { res, body: mapped } = await app.mappedToken(org, { 'Eng Admins': 'admin', 'editors-ext': 'editor' })
      expect(res.status).toBe(200)
      expect(mapped.groupRoles).toEqual({ 'Eng Admins': 'admin', 'editors-ext': 'editor' })
      const listed = await (await org.owner.jar.get(`/auth/scim-tokens/${org.id}`)).json()
      expect(listed.tokens.find((t: { id: string }) => t.id === mapped.id).groupRoles).toEqual({ 'Eng Admins': 'admin', 'editors-ext': 'editor' })
      const token = mapped.token
      const people: Array<{ id: string; userId: string }> = []
      for (const n of ['ada', 'bob']) {
        const mail = `${n}-${unique()}@example.com`
        const made = await (await app.call(token, 'POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: mail, emails: [{ primary: true, value: mail }], active: true })).json()
        const userId = (await (await app.owner(org)).json()).members.find((m: { email: string }) => m.email === mail).userId
        people.push({ id: made.id, userId })
      }
      const [ada, bob] = people as [{ id: string; userId: string }, { id: string; userId: string }]
      expect(await app.roleOf(org, ada.userId)).toBe('member')
      // Okta pushes a group with a member, then adds another.
      const eng = await (await app.call(token, 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Eng Admins', members: [{ value: ada.id, display: 'ada' }] })).json()
      expect(await app.roleOf(org, ada.userId)).toBe('admin')
      await app.call(token, 'PATCH', `/Groups/${eng.id}`, { schemas: [patchOp], Operations: [{ op: 'add', path: 'members', value: [{ value: bob.id, display: 'bob' }] }] })
      expect(await app.roleOf(org, bob.userId)).toBe('admin')
      // Entra: a group mapped by its externalId; Add members; the higher role (admin) stays.
      const editors = await (await app.call(token, 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], externalId: 'editors-ext', displayName: 'Editors', meta: { resourceType: 'Group' } })).json()
      await app.call(token, 'PATCH', `/Groups/${editors.id}`, { schemas: [patchOp], Operations: [{ op: 'Add', path: 'members', value: [{ value: ada.id }] }] })
      expect(await app.roleOf(org, ada.userId)).toBe('admin')
      // Okta drops ada from Eng Admins: editor, by the group she is still in.
      await app.call(token, 'PATCH', `/Groups/${eng.id}`, { schemas: [patchOp], Operations: [{ op: 'remove', path: `members[value eq "${ada.id}"]` }] })
      expect(await app.roleOf(org, ada.userId)).toBe('editor')
      // Entra removes her from Editors: back to the default.
      await app.call(token, 'PATCH', `/Groups/${editors.id}`, { schemas: [patchOp], Operations: [{ op: 'Remove', path: 'members', value: [{ value: ada.id }] }] })
      expect(await app.roleOf(org, ada.userId)).toBe('member')
      // Deprovisioned and provisioned again: the role her groups give comes back with the membership.
      await app.call(token, 'PATCH', `/Users/${bob.id}`, { schemas: [patchOp], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] })
      expect(await app.roleOf(org, bob.userId)).toBeUndefined()
      await app.call(token, 'PATCH', `/Users/${bob.id}`, { schemas: [patchOp], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] })
      expect(await app.roleOf(org, bob.userId)).toBe('admin')
      // A renamed group no longer matches the mapping; deleting one drops its role too.
      await app.call(token, 'PATCH', `/Groups/${eng.id}`, { schemas: [patchOp], Operations: [{ op: 'replace', value: { id: eng.id, displayName: 'Eng' } }] })
      expect(await app.roleOf(org, bob.userId)).toBe('member')
      await app.call(token, 'PATCH', `/Groups/${eng.id}`, { schemas: [patchOp], Operations: [{ op: 'replace', value: { displayName: 'Eng Admins' } }] })
      expect(await app.roleOf(org, bob.userId)).toBe('admin')
      expect((await app.call(token, 'DELETE', `/Groups/${eng.id}`)).status).toBe(204)
      expect(await app.roleOf(org, bob.userId)).toBe('member')
      // A token without a mapping leaves roles alone.
      await app.call(org.token, 'POST', '/Groups', { displayName: 'Eng Admins', members: [{ value: ada.id }] })
      expect(await app.roleOf(org, ada.userId)).toBe('member')
    })

    it('discovery: ServiceProviderConfig, ResourceTypes and Schemas', async () => {
      const app = await setup()
      const config = await app.call(null, 'GET', '/ServiceProviderConfig')
      expect(config.headers.get('content-type')).toMatch(scimJson)
      expect(await config.json()).toMatchObject({ patch: { supported: true }, bulk: { supported: false }, filter: { supported: true, maxResults: 100 } })
      const types = await (await app.call(null, 'GET', '/ResourceTypes')).json()
      expect(types.Resources.map((t: { id: string }) => t.id)).toEqual(['User', 'Group'])
      const schemas = await (await app.call(null, 'GET', '/Schemas')).json()
      expect(schemas.Resources.map((s: { name: string }) => s.name)).toEqual(['User', 'EnterpriseUser', 'Group'])
      expect((await app.call(null, 'GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:User')).status).toBe(200)
    })
  })
}
