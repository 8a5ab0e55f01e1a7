/**
 * Permissions other plugins contribute to the organizations plugin's roles
 * (src/plugins/organizations/roles.ts, `contributePermission`): sso's `sso:manage` (owner and
 * admin), scim's `scim:manage` (owner); none without the plugin; given to an app role by the
 * configuration; contributed twice or badly named: a configuration error naming it.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from 'latchkey/server'
import { organizations, type OrganizationStore } from 'latchkey/plugins/organizations'
import { scim } from 'latchkey/plugins/scim'
import { sso } from 'latchkey/plugins/sso'
import { Jar } from '../support/jar.js'
import { testSecret } from '../support/server.js'

describe('contributed permissions: the role book', () => {
  it('without sso or scim the built-in roles hold only the organization’s own', () => {
    const orgs = organizations()
    expect(orgs.roles.permissionsOf('admin')).toEqual(['invitation:revoke', 'member:invite', 'member:remove', 'member:set-role', 'organization:update'])
    expect(orgs.roles.permissionsOf('admin')).not.toContain('sso:manage')
    expect(orgs.roles.permissionsOf('owner')).not.toContain('sso:manage')
  })

  it('sso contributes sso:manage to owner and admin as it is made; scim contributes scim:manage to the owner as an instance is built', () => {
    const orgs = organizations()
    sso({ organizations: orgs })
    expect(orgs.roles.allows('admin', 'sso:manage')).toBe(true)
    expect(orgs.roles.allows('owner', 'sso:manage')).toBe(true)
    expect(orgs.roles.allows('member', 'sso:manage')).toBe(false)
    expect(orgs.roles.allows('owner', 'scim:manage')).toBe(false)
    const config = { secret: testSecret, adapter: MemoryAdapter({ plugins: [orgs, scim()] }), plugins: [orgs, scim()], providers: [Credentials({ authorize: async () => null })] }
    Latchkey(config)
    expect(orgs.roles.allows('owner', 'scim:manage')).toBe(true)
    expect(orgs.roles.allows('admin', 'scim:manage')).toBe(false)
    // An instance built again with the same plugins: nothing new, nothing refused.
    Latchkey(config)
    sso({ organizations: orgs })
    expect(orgs.roles.permissionsOf('owner').filter((p) => p.endsWith(':manage'))).toEqual(['domain:manage', 'scim:manage', 'sso:manage'])
  })

  it('a configuration that gives sso:manage to a role keeps it; the built-in default still applies', () => {
    const orgs = organizations({ roles: { it: { sso: ['manage'] }, member: { sso: ['manage'] } } })
    sso({ organizations: orgs })
    expect(orgs.roles.allows('it', 'sso:manage')).toBe(true)
    expect(orgs.roles.allows('member', 'sso:manage')).toBe(true)
    expect(orgs.roles.allows('admin', 'sso:manage')).toBe(true)
  })

  it('a permission contributed twice, one of the organization’s own, or badly named, is a configuration error naming it', () => {
    const orgs = organizations()
    sso({ organizations: orgs })
    expect(() => orgs.contributePermission('other', 'sso:manage', ['owner', 'admin'])).toThrow(/sso:manage is contributed twice \(by sso and by other\)/)
    expect(() => orgs.contributePermission('sso', 'sso:manage', ['owner'])).toThrow(/sso:manage is contributed twice/)
    expect(() => orgs.contributePermission('other', 'member:invite', ['admin'])).toThrow(/member:invite is contributed twice \(by organizations and by other\)/)
    expect(() => orgs.contributePermission('other', 'organization:delete', ['owner'])).toThrow(/organization:delete is contributed twice/)
    for (const bad of ['manage', 'a:b:c', 'sso:', ':manage', 'sso manage:x', '1sso:manage']) {
      expect(() => orgs.contributePermission('other', bad, ['owner'])).toThrow(`the permission ${JSON.stringify(bad)}`)
    }
    expect(() => orgs.contributePermission('other', 'report:read', ['emperor' as never])).toThrow(/report:read to \["emperor"\]/)
    for (const error of [() => orgs.contributePermission('other', 'sso:manage', ['admin']), () => orgs.contributePermission('other', 'x', ['owner'])]) {
      expect(error).toThrow(expect.objectContaining({ code: 'Configuration' }))
    }
    expect(orgs.roles.allows('admin', 'report:read')).toBe(false)
  })
})

describe('contributed permissions: the routes that check them', () => {
  const setup = (roles?: Record<string, Record<string, string[]>>) => {
    const orgs = organizations(roles ? { roles } : {})
    const enterprise = sso({ organizations: orgs })
    const adapter = MemoryAdapter({ plugins: [orgs, enterprise] }) as unknown as OrganizationStore & { createUser: (u: object) => Promise<{ id: string }> }
    const handler = Latchkey({
      secret: testSecret,
      adapter: adapter as never,
      plugins: [orgs, enterprise],
      rateLimit: false,
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
      providers: [Credentials({ credentials: { username: {} }, authorize: async ({ username }) => ({ id: String(username), email: `${String(username)}@example.com` }) })],
    })
    const person = async (id: string) => {
      await adapter.createUser({ id, email: `${id}@example.com`, emailVerified: new Date() })
      const jar = new Jar(handler)
      expect((await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: id }, { 'x-auth-return-redirect': '1' })).status).toBe(200)
      return jar
    }
    return { adapter, person }
  }

  it('an app role given sso:manage may manage connections; a member may not; the organization lists the permission for both owner and the role', async () => {
    const { adapter, person } = setup({ it: { sso: ['manage'] } })
    const owner = await person(`owner-${crypto.randomUUID()}`)
    const made = await owner.postJson('/auth/organizations', { csrfToken: await owner.csrf(), action: 'create', name: 'Acme' })
    const org = (await made.json()) as { id: string }
    const helper = `it-${crypto.randomUUID()}`
    const plain = `member-${crypto.randomUUID()}`
    const helperJar = await person(helper)
    const plainJar = await person(plain)
    await adapter.addMember({ id: crypto.randomUUID(), organizationId: org.id, userId: helper, role: 'it', joinedAt: new Date() })
    await adapter.addMember({ id: crypto.randomUUID(), organizationId: org.id, userId: plain, role: 'member', joinedAt: new Date() })
    const listed = await helperJar.get(`/auth/sso-connections/${org.id}`)
    expect(listed.status).toBe(200)
    expect(await listed.json()).toMatchObject({ connections: [] })
    const refused = await plainJar.get(`/auth/sso-connections/${org.id}`)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ error: 'OrganizationForbidden' })
    const details = (await (await owner.get(`/auth/organizations/${org.id}`)).json()) as { roles: Array<{ name: string; permissions: string[] }> }
    const of = (name: string) => details.roles.find((r) => r.name === name)!.permissions
    expect(of('it')).toEqual(['sso:manage'])
    expect(of('admin')).toContain('sso:manage')
    expect(of('owner')).toContain('sso:manage')
    expect(of('member')).toEqual([])
  })
})
