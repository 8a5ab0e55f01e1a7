/**
 * Organizations (src/plugins/organizations) over HTTP against a real handler, on the memory
 * adapter and on latchkey's SQL adapter on PostgreSQL (DATABASE_URL), both session strategies:
 * the whole flow, IDOR, escalation, invitations (another address, twice, revoked, expired,
 * replaced, an unproven address), CSRF on every POST, freshness, enumeration by answer and by
 * time, bad input, the last owner, the session's organization read live, events, `auth.can`.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { PostgresAdapter } from '../../src/adapters/postgres/index.js'
import type { Adapter, AdapterUser } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Latchkey, withPermission } from 'latchkey/server'
import { requirePermission } from 'latchkey/node'
import { organizations, type OrganizationStore } from 'latchkey/plugins/organizations'
import { Jar } from '../support/jar.js'
import { testSecret } from '../support/server.js'
import { pluginStores } from '../support/plugin-stores.js'

const closers: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const close of closers) await close()
})

const orgs = organizations({ roles: { editor: { project: ['read', 'update'] }, inviter: { member: ['invite'] }, admin: { project: ['delete'] } } })
type Store = Adapter & OrganizationStore

const stores = pluginStores<Store>([orgs], 'organizations', 'test/plugins/organizations.test.ts', closers)

const strategies = ['database', 'jwt'] as const
type Strategy = (typeof strategies)[number]

interface Mail {
  to: string
  subject: string
  text: string
  html: string
}

let seq = 0
const unique = () => `${Date.now().toString(36)}${++seq}`

function app(adapter: Store, strategy: Strategy) {
  const clock = { now: Date.parse('2026-06-01T00:00:00Z') }
  const mail: Mail[] = []
  const logs: string[] = []
  const events: Array<[string, any]> = []
  const on = (name: string) => (message: unknown) => void events.push([name, message])
  const users = new Map<string, AdapterUser>()
  const handler = Latchkey({
    secret: testSecret,
    adapter,
    plugins: [orgs],
    session: { strategy },
    now: () => clock.now,
    rateLimit: { trustProxy: true },
    logger: { error: (e) => logs.push(`error ${e.name}: ${e.message}`), warn: (w) => logs.push(`warn ${w}`), debug: () => {} },
    events: {
      organizationMemberAdded: on('memberAdded'),
      organizationMemberRemoved: on('memberRemoved'),
      organizationRoleChanged: on('roleChanged'),
      organizationInvitationSent: on('invitationSent'),
      organizationInvitationAccepted: on('invitationAccepted'),
      organizationInvitationRevoked: on('invitationRevoked'),
      organizationDeleted: on('deleted'),
    },
    providers: [
      Credentials({ credentials: { username: {} }, authorize: async ({ username }) => users.get(String(username)) ?? null }),
      Email({ sendVerificationRequest: async () => {}, sendMail: async (m) => void mail.push(m as Mail) }),
    ],
  })
  /** A user with a proven address (or not), signed in in a jar of their own. */
  const person = async (name: string, { verified = true } = {}) => {
    const id = `${name}-${unique()}`
    const user = await adapter.createUser!({ id, email: `${id}@example.com`, emailVerified: verified ? new Date(clock.now) : null, name })
    users.set(id, user)
    const jar = new Jar(handler)
    jar.cookies.set('x', '')
    jar.cookies.delete('x')
    await signIn(jar, id)
    return { user, jar, id, email: user.email }
  }
  const signIn = async (jar: Jar, id: string) => {
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: id }, { 'x-auth-return-redirect': '1' })
    expect(res.status).toBe(200)
    // The session cookie once, though the plugin puts the last-active organization in a JWT after the kernel wrote it.
    expect(res.headers.getSetCookie().filter((c) => /^(__Secure-)?latchkey\.session-token=/.test(c))).toHaveLength(1)
  }
  /** The invitation link in the last email to `to`, as a path. */
  const linkTo = async (to: string) => {
    await handler.settled()
    const found = mail.filter((m) => m.to === to).at(-1)?.text.match(/http:\/\/localhost:3000\/auth\/organizations\/invitation\?\S+/)?.[0]
    if (!found) throw new Error(`no invitation was sent to ${to}`)
    const link = new URL(found)
    return { path: link.pathname + link.search, token: link.searchParams.get('token')! }
  }
  return { handler, adapter, clock, mail, logs, events, person, signIn, linkTo }
}
type App = ReturnType<typeof app>
type Person = Awaited<ReturnType<App['person']>>

/** Each request from a client address of its own: the per-client rate limits never meet. */
const client = () => ({ 'x-forwarded-for': `198.51.100.${++seq % 250}` })
const post = async (jar: Jar, path: string, body: Record<string, unknown>) => jar.postJson(path, { csrfToken: await jar.csrf(), ...body }, client())
const act = (jar: Jar, orgId: string, body: Record<string, unknown>) => post(jar, `/auth/organizations/${orgId}`, body)
const read = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })

async function create(jar: Jar, name = 'Acme', extra: Record<string, unknown> = {}) {
  const res = await post(jar, '/auth/organizations', { action: 'create', name, ...extra })
  expect(res.status).toBe(200)
  return (await res.json()) as { id: string; name: string; slug: string; logo: string | null; role: string }
}

/** `who` invited to `orgId` as `role` by `by`, and accepting: a member. */
async function join(made: App, by: Person, orgId: string, who: Person, role = 'member') {
  expect((await act(by.jar, orgId, { action: 'invite', email: who.email, role })).status).toBe(200)
  const { token } = await made.linkTo(who.email)
  const res = await read(await post(who.jar, '/auth/organizations/invitation', { action: 'accept', token }))
  expect(res).toMatchObject({ status: 200, body: { organization: { id: orgId, role } } })
}

const details = async (jar: Jar, orgId: string) => read(await jar.get(`/auth/organizations/${orgId}`))

for (const [storeName, makeStore] of Object.entries(stores)) {
  for (const strategy of strategies) {
    describe(`organizations, ${storeName} store, ${strategy} sessions`, () => {
      it('the whole flow: create, switch, invite, accept, set-role, remove, leave, delete; the session and the events follow', async () => {
        const made = app(await makeStore(), strategy)
        const ada = await made.person('ada')
        const bob = await made.person('bob')
        const cy = await made.person('cy')

        const slug = `acme-${unique()}`
        const created = await create(ada.jar, 'Acme', { slug, logo: 'https://cdn.example.com/acme.png' })
        expect(created).toEqual({ id: expect.any(String), name: 'Acme', slug, logo: 'https://cdn.example.com/acme.png', role: 'owner' })
        // The creator's session switched to it.
        expect((await ada.jar.session()).organization).toEqual({ id: created.id, slug, role: 'owner' })
        expect(await read(await ada.jar.get('/auth/organizations'))).toEqual({ status: 200, body: { organizations: [{ ...created }], active: created.id } })

        // Switching off and on: only the session, announced to the worker, no new sign-in.
        const off = await post(ada.jar, '/auth/organizations', { action: 'switch', organizationId: null })
        expect(await off.json()).toEqual({ active: null })
        expect(off.headers.get('latchkey-session')).toBeTruthy()
        expect((await ada.jar.session()).organization).toBeUndefined()
        const on = await post(ada.jar, '/auth/organizations', { action: 'switch', organizationId: created.id })
        expect(await on.json()).toEqual({ active: created.id })
        expect(on.headers.get('latchkey-session')).toBeTruthy()
        expect((await ada.jar.session()).organization).toEqual({ id: created.id, slug, role: 'owner' })

        // Invite bob as admin: a branded email with the link.
        const invited = await read(await act(ada.jar, created.id, { action: 'invite', email: bob.email.toUpperCase(), role: 'admin' }))
        expect(invited).toEqual({ status: 200, body: { id: expect.any(String), email: bob.email, role: 'admin', invitedBy: ada.id, expires: '2026-06-08T00:00:00.000Z', createdAt: '2026-06-01T00:00:00.000Z' } })
        const { path, token } = await made.linkTo(bob.email)
        const sent = made.mail.at(-1)!
        expect(sent.subject).toBe('Join Acme on localhost:3000')
        expect(sent.text).toContain('ada invited you to join Acme on localhost:3000 as admin.')
        expect(sent.html).toContain('See the invitation')
        expect(sent.text).not.toContain(created.id)

        // The link's page changes nothing; it offers the button to the invited address.
        const page = await bob.jar.get(path)
        expect(page.status).toBe(200)
        const pageHtml = await page.text()
        expect(pageHtml).toContain('Join Acme')
        expect(pageHtml).toContain('name="token"')
        expect((await details(ada.jar, created.id)).body.invitations).toHaveLength(1)

        // Accepting from the page's form, a minute later: a page, bob a member, the organization active in his session.
        made.clock.now += 60_000
        const accepted = await bob.jar.postForm('/auth/organizations/invitation', { csrfToken: await bob.jar.csrf(), action: 'accept', token }, client())
        expect(accepted.status).toBe(200)
        expect(await accepted.text()).toContain('You are now a member of Acme.')
        expect((await bob.jar.session()).organization).toEqual({ id: created.id, slug, role: 'admin' })

        const seen = await details(ada.jar, created.id)
        expect(seen.body).toMatchObject({ id: created.id, name: 'Acme', slug, role: 'owner', invitations: [] })
        expect(seen.body.members).toEqual([
          { userId: ada.id, name: 'ada', email: ada.email, image: null, role: 'owner', joinedAt: '2026-06-01T00:00:00.000Z' },
          { userId: bob.id, name: 'bob', email: bob.email, image: null, role: 'admin', joinedAt: '2026-06-01T00:01:00.000Z' },
        ])
        expect(seen.body.roles).toContainEqual({ name: 'editor', permissions: ['project:read', 'project:update'] })

        // auth.can for the session's organization, live.
        const asBob = () => new Request('http://localhost:3000/api', { headers: { cookie: [...bob.jar.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } })
        expect(await made.handler.can(asBob(), 'project:delete')).toBe(true)
        expect(await made.handler.can(asBob(), 'organization:delete')).toBe(false)

        // bob, an admin, invites cy as editor; cy joins, then bob makes her a member.
        await join(made, bob, created.id, cy, 'editor')
        expect((await cy.jar.session()).organization).toEqual({ id: created.id, slug, role: 'editor' })
        expect(await read(await act(bob.jar, created.id, { action: 'set-role', userId: cy.id, role: 'member' }))).toEqual({ status: 200, body: { userId: cy.id, role: 'member' } })
        expect((await cy.jar.session()).organization).toEqual({ id: created.id, slug, role: 'member' })

        // Ada makes bob a member; his next read says so, and he may no longer delete projects.
        expect((await act(ada.jar, created.id, { action: 'set-role', userId: bob.id, role: 'member' })).status).toBe(200)
        expect((await bob.jar.session()).organization.role).toBe('member')
        expect(await made.handler.can(asBob(), 'project:delete')).toBe(false)

        // Removed: the organization is gone from bob's session at the next read.
        expect(await read(await act(ada.jar, created.id, { action: 'remove-member', userId: bob.id }))).toEqual({ status: 200, body: { removed: bob.id } })
        expect((await bob.jar.session()).organization).toBeUndefined()
        expect((await read(await bob.jar.get('/auth/organizations'))).body).toEqual({ organizations: [], active: null })
        expect((await details(bob.jar, created.id)).status).toBe(404)

        // cy leaves.
        expect(await read(await act(cy.jar, created.id, { action: 'leave' }))).toEqual({ status: 200, body: { left: created.id } })
        expect((await cy.jar.session()).organization).toBeUndefined()

        // Renamed, then deleted by its owner: gone from her session.
        expect((await read(await act(ada.jar, created.id, { action: 'update', name: 'Acme Inc', logo: null }))).body).toEqual({ id: created.id, name: 'Acme Inc', slug, logo: null, role: 'owner' })
        expect(await read(await act(ada.jar, created.id, { action: 'delete' }))).toEqual({ status: 200, body: { deleted: created.id } })
        expect((await ada.jar.session()).organization).toBeUndefined()
        expect((await details(ada.jar, created.id)).status).toBe(404)

        const byEvent = made.events.map(([name, m]) => [name, m.by.id, m.member?.userId ?? m.invitation?.email ?? null])
        expect(byEvent).toEqual([
          ['memberAdded', ada.id, ada.id],
          ['invitationSent', ada.id, bob.email],
          ['memberAdded', bob.id, bob.id],
          ['invitationAccepted', bob.id, bob.id],
          ['invitationSent', bob.id, cy.email],
          ['memberAdded', cy.id, cy.id],
          ['invitationAccepted', cy.id, cy.id],
          ['roleChanged', bob.id, cy.id],
          ['roleChanged', ada.id, bob.id],
          ['memberRemoved', ada.id, bob.id],
          ['memberRemoved', cy.id, cy.id],
          ['deleted', ada.id, null],
        ])
        expect(made.events.find(([name]) => name === 'roleChanged')![1]).toMatchObject({ from: 'editor', member: { role: 'member' } })
        expect(made.logs.filter((l) => l.startsWith('error'))).toEqual([])
      })

      it('a new sign-in starts in the organization last active, live: none once switched to none, once removed, or once the organization is gone', async () => {
        const made = app(await makeStore(), strategy)
        const ada = await made.person('ada')
        const bob = await made.person('bob')
        const fresh = async (who: Person) => {
          const jar = new Jar(made.handler)
          await made.signIn(jar, who.id)
          return (await jar.session()).organization
        }
        expect(await fresh(bob)).toBeUndefined()
        const org = await create(ada.jar, 'Initech')
        const other = await create(ada.jar, 'Other')
        expect(await fresh(ada)).toEqual({ id: other.id, slug: other.slug, role: 'owner' })
        await post(ada.jar, '/auth/organizations', { action: 'switch', organizationId: org.id })
        expect(await fresh(ada)).toEqual({ id: org.id, slug: org.slug, role: 'owner' })
        await post(ada.jar, '/auth/organizations', { action: 'switch', organizationId: null })
        expect(await fresh(ada)).toBeUndefined()

        // Bob, invited and accepting: his next sign-in starts there, with his role read live.
        await join(made, ada, org.id, bob, 'editor')
        expect(await fresh(bob)).toEqual({ id: org.id, slug: org.slug, role: 'editor' })
        expect((await act(ada.jar, org.id, { action: 'set-role', userId: bob.id, role: 'member' })).status).toBe(200)
        expect(await fresh(bob)).toEqual({ id: org.id, slug: org.slug, role: 'member' })
        // Removed: never restored, nor once invited again (a new membership he has not made active).
        expect((await act(ada.jar, org.id, { action: 'remove-member', userId: bob.id })).status).toBe(200)
        expect(await fresh(bob)).toBeUndefined()
        await made.adapter.addMember({ id: crypto.randomUUID(), organizationId: org.id, userId: bob.id, role: 'member', joinedAt: new Date(made.clock.now) })
        expect(await fresh(bob)).toBeUndefined()
        // The organization deleted: none.
        await post(ada.jar, '/auth/organizations', { action: 'switch', organizationId: other.id })
        await made.adapter.deleteOrganization(other.id)
        expect(await fresh(ada)).toBeUndefined()
        expect(made.logs.filter((l) => l.startsWith('error'))).toEqual([])
      })

      it("IDOR: another's organization never becomes one's last active, by switch, join or a forged body", async () => {
        const made = app(await makeStore(), strategy)
        const ada = await made.person('ada')
        const eve = await made.person('eve')
        const theirs = await create(ada.jar, 'Theirs')
        const mine = await create(eve.jar, 'Mine')
        const adaMember = (await made.adapter.getMember(theirs.id, ada.id))!
        const tries: Array<Record<string, unknown>> = [
          { action: 'switch', organizationId: theirs.id },
          { action: 'switch', organizationId: theirs.id, memberId: adaMember.id, userId: ada.id },
          { action: 'join', organizationId: theirs.id },
          { action: 'create', name: 'Forged', memberId: adaMember.id, organizationId: theirs.id, userId: ada.id },
        ]
        for (const body of tries.slice(0, 3)) expect((await post(eve.jar, '/auth/organizations', body)).status, JSON.stringify(body)).toBe(404)
        const jar = new Jar(made.handler)
        await made.signIn(jar, eve.id)
        expect((await jar.session()).organization).toEqual({ id: mine.id, slug: mine.slug, role: 'owner' })
        // A create with forged fields makes eve's own organization, and that one is her last active.
        const forged = await read(await post(eve.jar, '/auth/organizations', tries[3]!))
        expect(forged.body.role).toBe('owner')
        expect(forged.body.id).not.toBe(theirs.id)
        const again = new Jar(made.handler)
        await made.signIn(again, eve.id)
        expect((await again.session()).organization.id).toBe(forged.body.id)
        expect((await made.adapter.getMember(theirs.id, eve.id))).toBeNull()
      })

      it('a member removed by another server’s request, or an organization deleted, leaves every session of theirs at the next read', async () => {
        const made = app(await makeStore(), strategy)
        const ada = await made.person('ada')
        const bob = await made.person('bob')
        const org = await create(ada.jar, 'Umbrella')
        await join(made, ada, org.id, bob)
        // A second browser of bob's, switched to it too.
        const laptop = new Jar(made.handler)
        await made.signIn(laptop, bob.id)
        await post(laptop, '/auth/organizations', { action: 'switch', organizationId: org.id })
        expect((await laptop.session()).organization.id).toBe(org.id)
        // Removed straight in the store (another server, SCIM...): both browsers lose it.
        await made.adapter.removeMember(org.id, bob.id)
        expect((await bob.jar.session()).organization).toBeUndefined()
        expect((await laptop.session()).organization).toBeUndefined()
        // Invited again: a new membership, and no old session comes back to it by itself.
        await join(made, ada, org.id, bob)
        expect((await laptop.session()).organization).toBeUndefined()
        expect((await bob.jar.session()).organization.id).toBe(org.id)
        await made.adapter.deleteOrganization(org.id)
        expect((await bob.jar.session()).organization).toBeUndefined()
        expect((await ada.jar.session()).organization).toBeUndefined()
      })
    })
  }
}

describe.runIf(stores.PostgreSQL)('organizations: the session read stays one round trip on the SQL adapter', () => {
  it('GET /session with an active organization sends one query, the organization read in it', async () => {
    const shared = (await stores.PostgreSQL!()) as Store & { db: Parameters<typeof PostgresAdapter>[0] }
    const queries: string[] = []
    const counted = PostgresAdapter(shared.db, { plugins: [orgs], onQuery: (sql) => void queries.push(sql) }) as unknown as Store
    const made = app(counted, 'database')
    const ada = await made.person('ada')
    const org = await create(ada.jar, 'Counted')
    queries.length = 0
    expect((await ada.jar.session()).organization).toEqual({ id: org.id, slug: org.slug, role: 'owner' })
    expect(queries).toHaveLength(1)
    expect(queries[0]).toContain('organization_active_sessions')
  })
})

describe('organizations: attacks and refusals (memory store)', () => {
  const setup = async (strategy: Strategy = 'database') => {
    const made = app((await stores.memory!()) as Store, strategy)
    const ada = await made.person('ada')
    const org = await create(ada.jar, 'Acme')
    return { made, ada, org }
  }

  it('IDOR: an organization one is not in answers as one that does not exist, for every route and action', async () => {
    const { made, ada, org } = await setup()
    const mallory = await made.person('mallory')
    const theirs = await create(mallory.jar, 'Evil')
    const none = crypto.randomUUID()
    const notMine = await read(await mallory.jar.get(`/auth/organizations/${org.id}`))
    const noSuch = await read(await mallory.jar.get(`/auth/organizations/${none}`))
    expect(notMine).toEqual({ status: 404, body: { error: 'OrganizationNotFound', message: 'No organization of yours has this id' } })
    expect(noSuch).toEqual(notMine)
    for (const body of [
      { action: 'update', name: 'Pwned' },
      { action: 'delete' },
      { action: 'leave' },
      { action: 'set-role', userId: mallory.id, role: 'owner' },
      { action: 'remove-member', userId: ada.id },
      { action: 'invite', email: mallory.email, role: 'owner' },
      { action: 'revoke-invitation', invitationId: 'x' },
    ]) {
      expect(await read(await act(mallory.jar, org.id, body))).toEqual(notMine)
      expect(await read(await act(mallory.jar, none, body))).toEqual(notMine)
    }
    expect(await read(await post(mallory.jar, '/auth/organizations', { action: 'switch', organizationId: org.id }))).toEqual(notMine)
    // A member of one organization naming a member of another by userId: not found there, nothing changed.
    const eve = await made.person('eve')
    await join(made, mallory, theirs.id, eve)
    for (const body of [{ action: 'remove-member', userId: eve.id }, { action: 'set-role', userId: eve.id, role: 'admin' }]) {
      expect(await read(await act(ada.jar, org.id, body))).toEqual({ status: 404, body: { error: 'MemberNotFound', message: 'No member of this organization has this user id' } })
    }
    expect((await details(mallory.jar, theirs.id)).body.members.map((m: any) => [m.userId, m.role])).toEqual([[mallory.id, 'owner'], [eve.id, 'member']])
    expect((await details(ada.jar, org.id)).body).toMatchObject({ name: 'Acme', members: [{ userId: ada.id, role: 'owner' }] })
    // An invitation of another organization cannot be revoked through one's own.
    await act(mallory.jar, theirs.id, { action: 'invite', email: 'someone@example.com', role: 'member' })
    const theirInvitation = (await details(mallory.jar, theirs.id)).body.invitations[0].id
    expect(await read(await act(ada.jar, org.id, { action: 'revoke-invitation', invitationId: theirInvitation }))).toMatchObject({ status: 404, body: { error: 'InvitationNotFound' } })
    expect((await details(mallory.jar, theirs.id)).body.invitations).toHaveLength(1)
  })

  it('enumeration by time: not a member and no such organization take about as long', async () => {
    const { made, org } = await setup()
    const mallory = await made.person('mallory')
    const time = async (path: string) => {
      const start = performance.now()
      const res = await mallory.jar.get(path)
      expect(res.status).toBe(404)
      await res.text()
      return performance.now() - start
    }
    const times = { member: [] as number[], none: [] as number[] }
    for (let i = 0; i < 40; i++) {
      times.member.push(await time(`/auth/organizations/${org.id}`))
      times.none.push(await time(`/auth/organizations/${crypto.randomUUID()}`))
    }
    const [a, b] = [Math.min(...times.member), Math.min(...times.none)]
    console.log(`organization not mine vs none, fastest answer: ${a.toFixed(3)} ms vs ${b.toFixed(3)} ms`)
    expect(Math.abs(a - b)).toBeLessThan(Math.max(a, b) * 0.5 + 0.5)
  })

  it('escalation: nobody grants or touches a role above their own', async () => {
    const { made, ada, org } = await setup()
    const bob = await made.person('bob')
    const cy = await made.person('cy')
    const dee = await made.person('dee')
    await join(made, ada, org.id, bob, 'admin')
    await join(made, ada, org.id, cy, 'member')
    await join(made, ada, org.id, dee, 'inviter')
    const above = { status: 403, body: { error: 'OrganizationForbidden', message: 'You cannot give or change a role above your own' } }
    // An admin making themselves owner, granting owner, inviting an owner, demoting or removing the owner.
    expect(await read(await act(bob.jar, org.id, { action: 'set-role', userId: bob.id, role: 'owner' }))).toEqual(above)
    expect(await read(await act(bob.jar, org.id, { action: 'set-role', userId: cy.id, role: 'owner' }))).toEqual(above)
    expect(await read(await act(bob.jar, org.id, { action: 'invite', email: 'x@example.com', role: 'owner' }))).toEqual(above)
    expect(await read(await act(bob.jar, org.id, { action: 'set-role', userId: ada.id, role: 'member' }))).toEqual(above)
    expect(await read(await act(bob.jar, org.id, { action: 'remove-member', userId: ada.id }))).toEqual(above)
    // A member may not invite at all; a role that may invite cannot hand out admin.
    expect(await read(await act(cy.jar, org.id, { action: 'invite', email: 'x@example.com', role: 'member' }))).toEqual({
      status: 403,
      body: { error: 'OrganizationForbidden', message: 'Your role in this organization does not allow this (member:invite)' },
    })
    expect(await read(await act(dee.jar, org.id, { action: 'invite', email: 'x@example.com', role: 'admin' }))).toEqual(above)
    expect((await act(dee.jar, org.id, { action: 'invite', email: 'x@example.com', role: 'editor' })).status).toBe(200)
    // A member may not see pending invitations, change roles, remove members, rename or delete.
    expect((await details(cy.jar, org.id)).body.invitations).toBeUndefined()
    for (const body of [{ action: 'set-role', userId: dee.id, role: 'member' }, { action: 'remove-member', userId: dee.id }, { action: 'update', name: 'Mine' }, { action: 'delete' }, { action: 'revoke-invitation', invitationId: 'x' }]) {
      expect((await read(await act(cy.jar, org.id, body))).body.error).toBe('OrganizationForbidden')
    }
    // An admin may not delete.
    expect((await read(await act(bob.jar, org.id, { action: 'delete' }))).body).toEqual({ error: 'OrganizationForbidden', message: 'Your role in this organization does not allow this (organization:delete)' })
    expect((await details(ada.jar, org.id)).body.members.map((m: any) => m.role)).toEqual(['owner', 'admin', 'member', 'inviter'])
  })

  it('the last owner can neither leave nor be removed nor demoted; with a second owner they can', async () => {
    const { made, ada, org } = await setup()
    const last = { status: 409, body: { error: 'LastOwner', message: 'The organization needs an owner: make another member owner first' } }
    expect(await read(await act(ada.jar, org.id, { action: 'leave' }))).toEqual(last)
    expect(await read(await act(ada.jar, org.id, { action: 'remove-member', userId: ada.id }))).toEqual(last)
    expect(await read(await act(ada.jar, org.id, { action: 'set-role', userId: ada.id, role: 'admin' }))).toEqual(last)
    const bob = await made.person('bob')
    await join(made, ada, org.id, bob, 'admin')
    // Ownership transfer: making another owner (a fresh session: she just signed in).
    expect((await act(ada.jar, org.id, { action: 'set-role', userId: bob.id, role: 'owner' })).status).toBe(200)
    expect((await act(ada.jar, org.id, { action: 'leave' })).status).toBe(200)
    expect(await read(await act(bob.jar, org.id, { action: 'leave' }))).toEqual(last)
  })

  it('freshness: deleting and transferring ownership need a recent sign-in', async () => {
    const { made, ada, org } = await setup()
    const bob = await made.person('bob')
    await join(made, ada, org.id, bob, 'admin')
    made.clock.now += 2 * 3600_000
    const stale = { error: 'SessionNotFresh', message: 'This needs a sign-in within the last 3600 seconds: sign in again to confirm it is you' }
    expect(await read(await act(ada.jar, org.id, { action: 'delete' }))).toEqual({ status: 403, body: stale })
    expect(await read(await act(ada.jar, org.id, { action: 'set-role', userId: bob.id, role: 'owner' }))).toEqual({ status: 403, body: stale })
    expect(await read(await act(ada.jar, org.id, { action: 'invite', email: 'x@example.com', role: 'owner' }))).toEqual({ status: 403, body: stale })
    // Other changes need no fresh sign-in.
    expect((await act(ada.jar, org.id, { action: 'set-role', userId: bob.id, role: 'member' })).status).toBe(200)
    expect((await details(ada.jar, org.id)).status).toBe(200)
    await made.signIn(ada.jar, ada.id)
    expect((await act(ada.jar, org.id, { action: 'set-role', userId: bob.id, role: 'owner' })).status).toBe(200)
    expect((await act(ada.jar, org.id, { action: 'delete' })).status).toBe(200)
  })

  it('CSRF on every POST: without the token, 403 MissingCSRF and nothing changed', async () => {
    const { made, ada, org } = await setup()
    const bob = await made.person('bob')
    await act(ada.jar, org.id, { action: 'invite', email: bob.email, role: 'member' })
    const { token } = await made.linkTo(bob.email)
    const posts: Array<[Jar, string, Record<string, unknown>]> = [
      [ada.jar, '/auth/organizations', { action: 'create', name: 'Forged' }],
      [ada.jar, '/auth/organizations', { action: 'switch', organizationId: null }],
      [bob.jar, '/auth/organizations/invitation', { action: 'accept', token }],
      ...['update', 'delete', 'leave', 'set-role', 'remove-member', 'invite', 'revoke-invitation'].map((action) => [ada.jar, `/auth/organizations/${org.id}`, { action, name: 'X', userId: bob.id, role: 'admin', email: 'z@example.com', invitationId: 'x' }] as [Jar, string, Record<string, unknown>]),
    ]
    for (const [jar, path, body] of posts) {
      for (const csrfToken of [undefined, 'forged|forged']) {
        const res = await read(await jar.postJson(path, { ...body, ...(csrfToken && { csrfToken }) }, client()))
        expect(res).toMatchObject({ status: 403, body: { error: 'MissingCSRF' } })
      }
      // A form post from another site, which carries the cookies: the same.
      const form = await jar.postForm(path, Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])), client())
      expect(form.status).toBe(403)
    }
    expect((await read(await ada.jar.get('/auth/organizations'))).body).toEqual({ organizations: [{ ...org }], active: org.id })
    expect((await details(ada.jar, org.id)).body).toMatchObject({ name: 'Acme', members: [{ userId: ada.id }], invitations: [{ email: bob.email }] })
  })

  it('invitations: another address, twice, after revocation, after expiry, replaced by a re-invite, an unproven address: one refusal', async () => {
    const { made, ada, org } = await setup()
    const bob = await made.person('bob')
    const eve = await made.person('eve')
    const invalid = { status: 400, body: { error: 'InvitationInvalid', message: 'This invitation does not work: it was used, revoked or replaced, it expired, or it was sent to another address' } }
    const accept = async (who: Person, token: string) => read(await post(who.jar, '/auth/organizations/invitation', { action: 'accept', token }))

    // Another address: refused (on the page too), and the invitation still works for bob.
    await act(ada.jar, org.id, { action: 'invite', email: bob.email, role: 'member' })
    const first = await made.linkTo(bob.email)
    expect(await accept(eve, first.token)).toEqual(invalid)
    const evePage = await eve.jar.get(first.path)
    expect(evePage.status).toBe(400)
    expect(await evePage.text()).toContain('data-error="InvitationInvalid"')
    // Signed out: the page offers sign-in and sign-up, coming back to the link; accepting needs a session.
    const stranger = new Jar(made.handler)
    const outPage = await stranger.get(first.path)
    expect(outPage.status).toBe(200)
    const outHtml = await outPage.text()
    expect(outHtml).toContain('Sign in or sign up')
    expect(outHtml).toContain(`callbackUrl=${encodeURIComponent(`http://localhost:3000${first.path}`)}`)
    expect(outHtml).not.toContain('name="token"')
    expect(await read(await post(stranger, '/auth/organizations/invitation', { action: 'accept', token: first.token }))).toMatchObject({ status: 401, body: { error: 'AccessDenied' } })

    // Re-inviting replaces: the first link no longer works, the second does, once.
    await act(ada.jar, org.id, { action: 'invite', email: bob.email, role: 'admin' })
    const second = await made.linkTo(bob.email)
    expect(second.token).not.toBe(first.token)
    expect((await details(ada.jar, org.id)).body.invitations).toMatchObject([{ email: bob.email, role: 'admin' }])
    expect(await accept(bob, first.token)).toEqual(invalid)
    expect(await accept(bob, second.token)).toMatchObject({ status: 200, body: { organization: { id: org.id, role: 'admin' } } })
    expect(await accept(bob, second.token)).toEqual(invalid)
    expect(await read(await act(ada.jar, org.id, { action: 'invite', email: bob.email, role: 'member' }))).toMatchObject({ status: 409, body: { error: 'AlreadyMember' } })

    // Revoked.
    const cy = await made.person('cy')
    const sent = (await read(await act(ada.jar, org.id, { action: 'invite', email: cy.email, role: 'member' }))).body
    const revokedLink = await made.linkTo(cy.email)
    expect(await read(await act(ada.jar, org.id, { action: 'revoke-invitation', invitationId: sent.id }))).toEqual({ status: 200, body: { revoked: sent.id } })
    expect(await accept(cy, revokedLink.token)).toEqual(invalid)
    expect((await cy.jar.get(revokedLink.path)).status).toBe(400)

    // Expired: 7 days by default.
    await act(ada.jar, org.id, { action: 'invite', email: cy.email, role: 'member' })
    const late = await made.linkTo(cy.email)
    made.clock.now += 7 * 86400_000 + 1000
    expect(await accept(cy, late.token)).toEqual(invalid)

    // An address nobody proved: refused, and the invitation is not spent.
    const una = await made.person('una', { verified: false })
    await made.signIn(ada.jar, ada.id)
    await act(ada.jar, org.id, { action: 'invite', email: una.email, role: 'member' })
    const unproven = await made.linkTo(una.email)
    expect(await accept(una, unproven.token)).toEqual(invalid)
    expect((await details(ada.jar, org.id)).body.invitations.map((i: any) => i.email)).toContain(una.email)

    // Malformed tokens are refused alike.
    for (const token of ['', 'x'.repeat(43), 'short', 42, null]) expect(await accept(bob, token as string)).toEqual(invalid)
    expect(made.events.filter(([n]) => n === 'invitationAccepted')).toHaveLength(1)
  })

  it('bad input: each field wrong is a clear 400 and changes nothing', async () => {
    const { made, ada, org } = await setup()
    const before = await read(await ada.jar.get('/auth/organizations'))
    const creates: Array<Record<string, unknown>> = [
      {},
      { name: '' },
      { name: '   ' },
      { name: 42 },
      { name: 'x'.repeat(101) },
      { name: 'bad\u0000name' },
      { name: 'Ok', slug: 'Not A Slug' },
      { name: 'Ok', slug: '-dash' },
      { name: 'Ok', slug: 'a'.repeat(49) },
      { name: 'Ok', slug: ['a'] },
      { name: 'Ok', logo: 'javascript:alert(1)' },
      { name: 'Ok', logo: 'not a url' },
      { name: 'Ok', logo: 7 },
    ]
    for (const fields of creates) {
      const res = await read(await post(ada.jar, '/auth/organizations', { action: 'create', ...fields }))
      expect(res.status, JSON.stringify(fields)).toBe(400)
      expect(res.body.error).toBe('InvalidRequest')
    }
    for (const body of [{ action: 'nope' }, { action: 'switch', organizationId: 5 }, {}]) expect((await post(ada.jar, '/auth/organizations', body)).status).toBe(400)
    const bob = await made.person('bob')
    await join(made, ada, org.id, bob)
    const acts: Array<Record<string, unknown>> = [
      { action: 'update' },
      { action: 'update', name: '' },
      { action: 'update', slug: 'UPPER' },
      { action: 'set-role', userId: bob.id, role: 'superuser' },
      { action: 'set-role', userId: bob.id },
      { action: 'set-role', role: 'admin' },
      { action: 'remove-member', userId: 12 },
      { action: 'invite', email: 'not-an-address', role: 'member' },
      { action: 'invite', email: 'x@example.com', role: 'god' },
      { action: 'invite', email: ['x@example.com'], role: 'member' },
      { action: 'invite', email: 'x@example.com', role: 'member', callbackUrl: 5 },
      { action: 'revoke-invitation' },
      { action: 'explode' },
    ]
    for (const body of acts) {
      const res = await read(await act(ada.jar, org.id, body))
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toBe('InvalidRequest')
    }
    expect(await read(await ada.jar.get('/auth/organizations'))).toEqual(before)
    expect((await details(ada.jar, org.id)).body).toMatchObject({ name: 'Acme', slug: org.slug, members: [{ role: 'owner' }, { role: 'member' }], invitations: [] })
    // A slug taken: 409 SlugTaken, asked for on create or update; one made from the name gets a tail instead.
    const other = await create(ada.jar, 'Other', { slug: `other-${unique()}` })
    expect(await read(await post(ada.jar, '/auth/organizations', { action: 'create', name: 'Again', slug: org.slug }))).toMatchObject({ status: 409, body: { error: 'SlugTaken' } })
    expect(await read(await act(ada.jar, other.id, { action: 'update', slug: org.slug }))).toMatchObject({ status: 409, body: { error: 'SlugTaken' } })
    const twin = await create(ada.jar, 'Acme')
    expect(twin.slug).toMatch(/^acme-[0-9a-f]{6}$/)
    // Signed out: 401 for reads and actions.
    const anon = new Jar(made.handler)
    expect((await anon.get('/auth/organizations')).status).toBe(401)
    expect((await post(anon, '/auth/organizations', { action: 'create', name: 'X' })).status).toBe(401)
    expect(made.logs.filter((l) => l.startsWith('error'))).toEqual([])
  })

  it('invitations are rate-limited per inviting account', async () => {
    const { made, ada, org } = await setup()
    let last: Response | undefined
    for (let i = 0; i < 51; i++) last = await act(ada.jar, org.id, { action: 'invite', email: `p${i}-${unique()}@example.com`, role: 'member' })
    expect(last!.status).toBe(429)
    expect((await last!.json()).error).toBe('RateLimited')
    expect(made.mail.length).toBeLessThanOrEqual(50)
  })

  it('middleware: requirePermission (node, Express) and withPermission (fetch, Hono) answer 401 signed out, 403 without the permission', async () => {
    const { made, ada, org } = await setup()
    const bob = await made.person('bob')
    await join(made, ada, org.id, bob, 'editor')
    const cookieOf = (jar: Jar) => [...jar.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ')
    const guard = requirePermission(made.handler, 'project:update')
    const server = createServer((req, res) => void guard(req, res, () => res.end(JSON.stringify({ ok: guard.session(req).organization }))))
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    closers.push(() => new Promise((done) => server.close(done)))
    const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`
    const nodeAnswer = async (cookie?: string) => read(await fetch(at, { headers: { ...(cookie && { cookie }), host: 'localhost:3000' } }))
    expect(await nodeAnswer()).toEqual({ status: 401, body: { error: 'Unauthorized' } })
    expect(await nodeAnswer(cookieOf(bob.jar))).toEqual({ status: 200, body: { ok: { id: org.id, slug: org.slug, role: 'editor' } } })
    const strict = requirePermission(made.handler, 'project:delete')
    const denied = await new Promise<number>((done) => {
      const other = createServer((req, res) => void strict(req, res, () => res.end('no'))).listen(0, '127.0.0.1', async () => {
        const res = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`, { headers: { cookie: cookieOf(bob.jar), host: 'localhost:3000' } })
        expect(await res.json()).toEqual({ error: 'Forbidden', permission: 'project:delete' })
        other.close(() => done(res.status))
      })
    })
    expect(denied).toBe(403)
    const route = withPermission(made.handler, 'project:delete', async () => new Response('deleted'))
    const request = (jar?: Jar) => new Request('http://localhost:3000/api/projects/1', { headers: jar ? { cookie: cookieOf(jar) } : {} })
    expect((await route(request())).status).toBe(401)
    expect(await read(await route(request(bob.jar)))).toEqual({ status: 403, body: { error: 'Forbidden', permission: 'project:delete' } })
    expect(await (await route(request(ada.jar))).text()).toBe('deleted')
  })

  it('auth.can without the plugin is a configuration error that names the fix; signed out it is false', async () => {
    const bare = Latchkey({ secret: testSecret, providers: [], session: { strategy: 'jwt' } })
    await expect(bare.can(new Request('http://localhost:3000/'), 'project:delete')).rejects.toMatchObject({ type: 'Configuration', message: expect.stringContaining('organizations() from latchkey/plugins/organizations') })
    const { made } = await setup()
    expect(await made.handler.can(new Request('http://localhost:3000/'), 'project:delete')).toBe(false)
    expect(made.handler.permits(null, 'project:delete')).toBe(false)
  })
})
