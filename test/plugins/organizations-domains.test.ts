/**
 * Verified domains of the organizations plugin over HTTP, against a real handler and a DNS server
 * the test starts (test/support/dns-responder.ts, asked through node:dns's own Resolver): add,
 * publish, verify; a wrong or missing record; IDOR; a member without `domain:manage`; DomainTaken;
 * bad input; CSRF on every POST; freshness; joining only with a verified address of the domain;
 * auto-join at sign-in; `organizationForDomain` as another plugin calls it. Memory and PostgreSQL.
 */
import { Resolver } from 'node:dns/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Adapter, AdapterUser } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import { json, Latchkey } from 'latchkey/server'
import { normalizeDomain, organizations, type DomainStore, type OrganizationsPlugin, type OrganizationStore } from 'latchkey/plugins/organizations'
import { startDnsResponder, type DnsResponder } from '../support/dns-responder.js'
import { Jar } from '../support/jar.js'
import { testSecret } from '../support/server.js'
import { pluginStores } from '../support/plugin-stores.js'

let dns: DnsResponder
const resolver = new Resolver({ timeout: 1000, tries: 1 })
beforeAll(async () => {
  dns = await startDnsResponder()
  resolver.setServers([dns.address])
})
const closers: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const close of closers) await close()
  await dns.close()
})

const orgs = organizations({ roles: { editor: { project: ['update'] }, domainer: { domain: ['manage'] } }, resolveTxt: (name) => resolver.resolveTxt(name) })
type Store = Adapter & OrganizationStore & DomainStore

const stores = pluginStores<Store>([orgs], 'verified domains', 'test/plugins/organizations-domains.test.ts', closers)

let seq = 0
const unique = () => `${Date.now().toString(36)}${++seq}`
/** A domain no other test uses. */
const freshDomain = () => `acme-${unique()}.example`

/** What another plugin (an enterprise sign-in) sees: `organizationForDomain`, found through the configuration. */
const realm = {
  id: 'realm',
  routes: {
    realm: {
      GET: async (ctx: any) => {
        const plugin = ctx.config.plugins.find((p: { id: string }) => p.id === 'organizations') as OrganizationsPlugin
        return json(ctx, { found: await plugin.organizationForDomain(ctx, ctx.url.searchParams.get('q') ?? '') })
      },
    },
  },
}

function app(adapter: Store, strategy: 'database' | 'jwt' = 'database') {
  const clock = { now: Date.parse('2026-06-01T00:00:00Z') }
  const logs: string[] = []
  const events: Array<[string, any]> = []
  const links: Array<{ to: string; url: string }> = []
  const on = (name: string) => (message: unknown) => void events.push([name, message])
  const users = new Map<string, AdapterUser>()
  const handler = Latchkey({
    secret: testSecret,
    adapter,
    plugins: [orgs, realm],
    session: { strategy },
    now: () => clock.now,
    rateLimit: { trustProxy: true },
    logger: { error: (e) => logs.push(`error ${e.name}: ${e.message}`), warn: (w) => logs.push(`warn ${w}`), debug: () => {} },
    events: { organizationMemberAdded: on('memberAdded'), organizationDomainVerified: on('domainVerified'), organizationDomainRemoved: on('domainRemoved') },
    providers: [
      Credentials({ credentials: { username: {} }, authorize: async ({ username }) => users.get(String(username)) ?? null }),
      Email({ sendVerificationRequest: async ({ identifier, url }) => void links.push({ to: identifier, url }) }),
    ],
  })
  const signIn = async (jar: Jar, id: string) => {
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: id }, { 'x-auth-return-redirect': '1' })
    expect(res.status).toBe(200)
  }
  /** A user at `domain`, with a proven address (or not), signed in (or not) in a jar of their own. */
  const person = async (name: string, { domain = 'example.com', verified = true, signedIn = true } = {}) => {
    const id = `${name}-${unique()}`
    const user = await adapter.createUser!({ id, email: `${id}@${domain}`, emailVerified: verified ? new Date(clock.now) : null, name })
    users.set(id, user)
    const jar = new Jar(handler)
    if (signedIn) await signIn(jar, id)
    return { user, jar, id, email: user.email }
  }
  /** Signs in by the emailed link: the address is proven by it. */
  const signInByEmail = async (jar: Jar, email: string) => {
    await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email, callbackUrl: '/' }, { 'x-auth-return-redirect': '1' })
    await handler.settled()
    const link = new URL(links.filter((l) => l.to === email).at(-1)!.url)
    expect((await jar.get(link.pathname + link.search)).status).toBe(302)
  }
  return { handler, adapter, clock, logs, events, person, signIn, signInByEmail }
}
type App = ReturnType<typeof app>
type Person = Awaited<ReturnType<App['person']>>

const client = () => ({ 'x-forwarded-for': `198.51.100.${++seq % 250}` })
const post = async (jar: Jar, path: string, body: Record<string, unknown>) => jar.postJson(path, { csrfToken: await jar.csrf(), ...body }, client())
const read = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })
const domainAct = async (jar: Jar, orgId: string, body: Record<string, unknown>) => read(await post(jar, `/auth/organization-domains/${orgId}`, body))
const domainList = async (jar: Jar, orgId: string) => read(await jar.get(`/auth/organization-domains/${orgId}`))
const joinable = async (jar: Jar) => (await read(await jar.get('/auth/organizations/joinable'))).body.organizations
const join = async (jar: Jar, organizationId: string) => read(await post(jar, '/auth/organizations', { action: 'join', organizationId }))
const members = async (jar: Jar, orgId: string) => (await read(await jar.get(`/auth/organizations/${orgId}`))).body.members.map((m: any) => [m.userId, m.role])

async function create(jar: Jar, name = 'Acme') {
  const res = await read(await post(jar, '/auth/organizations', { action: 'create', name }))
  expect(res.status).toBe(200)
  return res.body as { id: string; name: string; slug: string; logo: string | null; role: string }
}

/** Adds `domain` to the organization and publishes its record in the test's DNS: verified. */
async function verified(jar: Jar, orgId: string, domain: string, extra: Record<string, unknown> = {}) {
  const added = await domainAct(jar, orgId, { action: 'add', domain, ...extra })
  expect(added.status).toBe(200)
  dns.records.set(added.body.record.name, [added.body.record.value])
  const done = await domainAct(jar, orgId, { action: 'verify', domainId: added.body.id })
  expect(done).toMatchObject({ status: 200, body: { verified: true } })
  return done.body as { id: string; domain: string; role: string; autoJoin: boolean }
}

for (const [storeName, makeStore] of Object.entries(stores)) {
  for (const strategy of ['database', 'jwt'] as const) {
    describe(`verified domains, ${storeName} store, ${strategy} sessions`, () => {
      it('add, publish, verify; a verified address of the domain joins with its role; others do not', async () => {
        const made = app(await makeStore(), strategy)
        const ada = await made.person('ada')
        const org = await create(ada.jar)
        const domain = freshDomain()

        // Added as given (case, trailing dot): normalized; the record to publish comes once, in the answer.
        const added = await domainAct(ada.jar, org.id, { action: 'add', domain: `${domain.toUpperCase()}.`, role: 'editor' })
        expect(added).toEqual({
          status: 200,
          body: {
            id: expect.any(String), domain, role: 'editor', autoJoin: false, verified: false, verifiedAt: null, createdAt: '2026-06-01T00:00:00.000Z',
            record: { name: `_latchkey-challenge.${domain}`, type: 'TXT', value: expect.stringMatching(/^latchkey-domain-verification=[A-Za-z0-9_-]{43}$/) },
          },
        })
        const { record } = added.body
        const listed = await domainList(ada.jar, org.id)
        expect(listed).toEqual({ status: 200, body: { domains: [{ ...added.body, record: undefined }] } })
        expect(JSON.stringify(listed.body)).not.toContain(record.value.split('=')[1])

        // Not published yet, then another value (someone else's, or a stale one): not verified, nothing changed.
        const notYet = { status: 400, body: { error: 'DomainNotVerified', message: `No TXT record at ${record.name} holds this domain's value yet: publish it, wait for DNS to carry it, and try again` } }
        expect(await domainAct(ada.jar, org.id, { action: 'verify', domainId: added.body.id })).toEqual(notYet)
        expect(dns.asked).toContain(record.name)
        dns.records.set(record.name, ['v=spf1 -all', `latchkey-domain-verification=${'A'.repeat(43)}`, record.value.slice(0, -1)])
        expect(await domainAct(ada.jar, org.id, { action: 'verify', domainId: added.body.id })).toEqual(notYet)
        expect((await domainList(ada.jar, org.id)).body.domains[0].verified).toBe(false)

        // Published among other records: verified.
        dns.records.set(record.name, ['v=spf1 -all', `  ${record.value}  `])
        made.clock.now += 60_000
        const done = await domainAct(ada.jar, org.id, { action: 'verify', domainId: added.body.id })
        expect(done).toEqual({ status: 200, body: { ...added.body, record: undefined, verified: true, verifiedAt: '2026-06-01T00:01:00.000Z' } })
        expect(made.events.filter(([n]) => n === 'domainVerified').map(([, m]) => [m.organization.id, m.domain.domain, m.by.id])).toEqual([[org.id, domain, ada.id]])
        // Adding it again changes nothing and gives no record.
        expect((await domainAct(ada.jar, org.id, { action: 'add', domain })).body).toEqual(done.body)

        // bob's verified address is at the domain: he sees it, joins as editor, and it is his session's organization.
        const bob = await made.person('bob', { domain })
        expect(await joinable(bob.jar)).toEqual([{ id: org.id, name: 'Acme', slug: org.slug, logo: null, role: 'editor', domain }])
        expect(await join(bob.jar, org.id)).toEqual({ status: 200, body: { organization: { id: org.id, name: 'Acme', slug: org.slug, logo: null, role: 'editor' } } })
        expect((await bob.jar.session()).organization).toEqual({ id: org.id, slug: org.slug, role: 'editor' })
        expect(await joinable(bob.jar)).toEqual([])
        expect(await join(bob.jar, org.id)).toMatchObject({ status: 409, body: { error: 'AlreadyMember' } })
        expect(made.events.filter(([n]) => n === 'memberAdded').at(-1)![1]).toMatchObject({ organization: { id: org.id }, member: { userId: bob.id, role: 'editor' }, via: 'domain', domain, by: { id: bob.id } })

        // An unproven address at the domain: nothing offered, joining refused. Another domain: as no organization.
        const una = await made.person('una', { domain, verified: false })
        expect(await joinable(una.jar)).toEqual([])
        expect(await join(una.jar, org.id)).toEqual({ status: 403, body: { error: 'EmailNotVerified', message: 'Joining by domain needs a verified address: confirm yours first' } })
        const carl = await made.person('carl', { domain: freshDomain() })
        expect(await joinable(carl.jar)).toEqual([])
        const none = { status: 404, body: { error: 'OrganizationNotFound', message: 'No organization of yours has this id' } }
        expect(await join(carl.jar, org.id)).toEqual(none)
        expect(await join(carl.jar, crypto.randomUUID())).toEqual(none)
        expect(await members(ada.jar, org.id)).toEqual([[ada.id, 'owner'], [bob.id, 'editor']])

        // Another plugin finds the organization by the domain or an address; a pending or unknown domain, nothing.
        const realmOf = async (q: string) => (await read(await ada.jar.get(`/auth/realm?q=${encodeURIComponent(q)}`))).body.found
        const expected = { id: org.id, name: 'Acme', slug: org.slug, logo: null, domain, role: 'editor', autoJoin: false }
        expect(await realmOf(domain.toUpperCase())).toEqual(expected)
        expect(await realmOf(`Someone@${domain}`)).toEqual(expected)
        expect(await realmOf(freshDomain())).toBeNull()
        expect(await realmOf('not a domain')).toBeNull()

        // Removed: no longer joinable, nor found.
        expect(await domainAct(ada.jar, org.id, { action: 'remove', domainId: added.body.id })).toEqual({ status: 200, body: { removed: added.body.id } })
        const dee = await made.person('dee', { domain })
        expect(await joinable(dee.jar)).toEqual([])
        expect(await join(dee.jar, org.id)).toEqual(none)
        expect(await realmOf(domain)).toBeNull()
        expect(made.events.filter(([n]) => n === 'domainRemoved')).toHaveLength(1)
        expect(made.logs.filter((l) => l.startsWith('error'))).toEqual([])
      })

      it('auto-join: a verified address of the domain becomes a member at sign-in; an unproven one only once the email link proves it', async () => {
        const made = app(await makeStore(), strategy)
        const ada = await made.person('ada')
        const org = await create(ada.jar)
        const domain = freshDomain()
        const other = freshDomain()
        await verified(ada.jar, org.id, domain, { autoJoin: true })
        const plain = await verified(ada.jar, (await create(ada.jar, 'Plain')).id, other)
        expect(plain.autoJoin).toBe(false)

        const eve = await made.person('eve', { domain })
        expect(await members(ada.jar, org.id)).toContainEqual([eve.id, 'member'])
        // Her first session starts in the organization she just joined.
        expect((await eve.jar.session()).organization).toEqual({ id: org.id, slug: org.slug, role: 'member' })
        expect(made.events.filter(([n]) => n === 'memberAdded').at(-1)![1]).toMatchObject({ member: { userId: eve.id, role: 'member' }, via: 'auto-join', domain, by: { id: eve.id } })
        // Signing in again adds nothing.
        const before = made.events.length
        await made.signIn(eve.jar, eve.id)
        expect(made.events.length).toBe(before)

        // Unproven: not a member after a password-like sign-in; proven by the email link: a member.
        const fay = await made.person('fay', { domain, verified: false })
        expect((await members(ada.jar, org.id)).map(([id]: string[]) => id)).not.toContain(fay.id)
        const fayByLink = new Jar(made.handler)
        await made.signInByEmail(fayByLink, fay.email)
        expect(await members(ada.jar, org.id)).toContainEqual([fay.id, 'member'])
        expect((await fayByLink.session()).organization).toEqual({ id: org.id, slug: org.slug, role: 'member' })

        // A domain without autoJoin: offered, not joined, and the session has no organization.
        const gil = await made.person('gil', { domain: other })
        expect((await joinable(gil.jar)).map((o: any) => o.domain)).toEqual([other])
        expect((await gil.jar.session()).organization).toBeUndefined()
        expect(made.logs.filter((l) => l.startsWith('error'))).toEqual([])
      })

      it('auto-join at a sign-in of a user with a last active organization: joined, and the session starts in the last active one', async () => {
        const made = app(await makeStore(), strategy)
        const domain = freshDomain()
        const hal = await made.person('hal', { domain })
        const own = await create(hal.jar, 'Hal & Co')
        const ada = await made.person('ada')
        const org = await create(ada.jar)
        await verified(ada.jar, org.id, domain, { autoJoin: true })
        const laptop = new Jar(made.handler)
        await made.signIn(laptop, hal.id)
        expect(await members(ada.jar, org.id)).toContainEqual([hal.id, 'member'])
        expect((await laptop.session()).organization).toEqual({ id: own.id, slug: own.slug, role: 'owner' })
        // Removed from his own (deleted): the next sign-in starts in none, auto-join adding nothing new.
        expect((await post(hal.jar, `/auth/organizations/${own.id}`, { action: 'delete' })).status).toBe(200)
        const phone = new Jar(made.handler)
        await made.signIn(phone, hal.id)
        expect((await phone.session()).organization).toBeUndefined()
        expect(made.logs.filter((l) => l.startsWith('error'))).toEqual([])
      })
    })
  }
}

describe('verified domains: attacks and refusals (memory store)', () => {
  const setup = async () => {
    const made = app(await stores.memory!())
    const ada = await made.person('ada')
    const org = await create(ada.jar)
    return { made, ada, org }
  }

  it("IDOR: another organization's domains are not listed, verified, changed or removed through one's own, nor is one not one's own", async () => {
    const { made, ada, org } = await setup()
    const domain = freshDomain()
    const mine = (await domainAct(ada.jar, org.id, { action: 'add', domain })).body
    const mallory = await made.person('mallory')
    const theirs = await create(mallory.jar, 'Evil')
    const notMine = { status: 404, body: { error: 'OrganizationNotFound', message: 'No organization of yours has this id' } }
    expect(await domainList(mallory.jar, org.id)).toEqual(notMine)
    expect(await domainList(mallory.jar, crypto.randomUUID())).toEqual(notMine)
    expect((await mallory.jar.get('/auth/organization-domains')).status).toBe(404)
    const noDomain = { status: 404, body: { error: 'DomainNotFound', message: 'This organization has no domain of this id' } }
    for (const body of [{ action: 'add', domain: freshDomain() }, { action: 'verify', domainId: mine.id }, { action: 'update', domainId: mine.id, autoJoin: true }, { action: 'remove', domainId: mine.id }]) {
      expect(await domainAct(mallory.jar, org.id, body)).toEqual(notMine)
      if (body.action !== 'add') expect(await domainAct(mallory.jar, theirs.id, body)).toEqual(noDomain)
    }
    expect((await domainList(ada.jar, org.id)).body.domains).toEqual([{ ...mine, record: undefined }])
    expect((await domainList(mallory.jar, theirs.id)).body.domains).toEqual([])
  })

  it('a member without domain:manage may neither list nor act; a role given it may, granting no role above its own', async () => {
    const { made, ada, org } = await setup()
    const domain = freshDomain()
    const claim = (await domainAct(ada.jar, org.id, { action: 'add', domain })).body
    // An admin (joined by a domain that gives admin) has no domain:manage by default.
    const adminDomain = freshDomain()
    await verified(ada.jar, org.id, adminDomain, { role: 'admin' })
    const admin = await made.person('admin', { domain: adminDomain })
    expect((await join(admin.jar, org.id)).body.organization.role).toBe('admin')
    const forbidden = { status: 403, body: { error: 'OrganizationForbidden', message: 'Your role in this organization does not allow this (domain:manage)' } }
    expect(await domainList(admin.jar, org.id)).toEqual(forbidden)
    for (const body of [{ action: 'add', domain: freshDomain() }, { action: 'verify', domainId: claim.id }, { action: 'update', domainId: claim.id, role: 'admin' }, { action: 'remove', domainId: claim.id }]) {
      expect(await domainAct(admin.jar, org.id, body)).toEqual(forbidden)
    }
    // An app role with domain:manage may add one, as member-rank roles only.
    const domainerDomain = freshDomain()
    await verified(ada.jar, org.id, domainerDomain, { role: 'domainer' })
    const dom = await made.person('dom', { domain: domainerDomain })
    expect((await join(dom.jar, org.id)).body.organization.role).toBe('domainer')
    expect(await domainAct(dom.jar, org.id, { action: 'add', domain: freshDomain(), role: 'admin' })).toEqual({ status: 403, body: { error: 'OrganizationForbidden', message: 'You cannot give or change a role above your own' } })
    expect((await domainAct(dom.jar, org.id, { action: 'add', domain: freshDomain(), role: 'editor' })).status).toBe(200)
    expect((await domainList(ada.jar, org.id)).body.domains).toHaveLength(4)
  })

  it('DomainTaken: a domain verified by one organization is neither added nor verified by another; pending claims may race, one wins', async () => {
    const { made, ada, org } = await setup()
    const mallory = await made.person('mallory')
    const evil = await create(mallory.jar, 'Evil')
    const domain = freshDomain()
    // Both claim it while pending; each has its own record; mallory cannot use ada's.
    const hers = (await domainAct(ada.jar, org.id, { action: 'add', domain })).body
    const his = (await domainAct(mallory.jar, evil.id, { action: 'add', domain })).body
    expect(his.record.name).toBe(hers.record.name)
    expect(his.record.value).not.toBe(hers.record.value)
    dns.records.set(hers.record.name, [hers.record.value])
    expect((await domainAct(mallory.jar, evil.id, { action: 'verify', domainId: his.id })).body.error).toBe('DomainNotVerified')
    expect((await domainAct(ada.jar, org.id, { action: 'verify', domainId: hers.id })).status).toBe(200)
    // Even with his own record published beside hers: taken.
    dns.records.set(hers.record.name, [hers.record.value, his.record.value])
    const taken = { status: 409, body: { error: 'DomainTaken', message: 'Another organization has verified this domain' } }
    expect(await domainAct(mallory.jar, evil.id, { action: 'verify', domainId: his.id })).toEqual(taken)
    expect(await domainAct(mallory.jar, evil.id, { action: 'add', domain })).toEqual(taken)
    expect(await domainAct(mallory.jar, evil.id, { action: 'add', domain: domain.toUpperCase() })).toEqual(taken)
    expect((await domainList(mallory.jar, evil.id)).body.domains.map((d: any) => d.verified)).toEqual([false])
    // Its users join ada's organization, not his.
    const user = await made.person('user', { domain })
    expect((await joinable(user.jar)).map((o: any) => o.id)).toEqual([org.id])
    expect(await join(user.jar, evil.id)).toMatchObject({ status: 404, body: { error: 'OrganizationNotFound' } })
  })

  it('bad input: IPs, wildcards, public suffixes, garbage and huge values are a clear 400, and change nothing', async () => {
    const { made, ada, org } = await setup()
    const bad = [
      '127.0.0.1', '10.0.0.1.', '0x7f.1', '2130706433', '[::1]', '::1', 'fe80::1', '*.acme.example', '*', 'com', 'COM.', 'co.uk', 'github.io', 'localhost',
      'a..example', '.example', '-acme.example', 'acme-.example', 'ac_me.example', 'http://acme.example', 'acme.example/path', 'acme.example:443', 'ada@acme.example',
      'acme example', 'acme.example\u0000', `${'a'.repeat(64)}.example`, `${'a.'.repeat(130)}example`,  'x'.repeat(5000), '', '   ', 42, null, true, ['acme.example'], { domain: 'acme.example' },
    ]
    for (const domain of bad) {
      const res = await domainAct(ada.jar, org.id, { action: 'add', domain })
      expect(res.status, JSON.stringify(domain).slice(0, 60)).toBe(400)
      expect(res.body.error).toBe('DomainInvalid')
    }
    expect((await domainAct(ada.jar, org.id, { action: 'add' })).body.error).toBe('DomainInvalid')
    // Beyond the body limit: refused before it is read.
    expect((await domainAct(ada.jar, org.id, { action: 'add', domain: 'x'.repeat(200_000) })).status).toBe(413)
    for (const body of [
      { action: 'add', domain: freshDomain(), role: 'owner' },
      { action: 'add', domain: freshDomain(), role: 'god' },
      { action: 'add', domain: freshDomain(), role: 7 },
      { action: 'add', domain: freshDomain(), autoJoin: 'yes' },
      { action: 'verify' },
      { action: 'verify', domainId: 5 },
      { action: 'verify', domainId: 'x'.repeat(201) },
      { action: 'update', domainId: 'x' },
      { action: 'remove' },
      { action: 'explode' },
      {},
    ]) {
      const res = await domainAct(ada.jar, org.id, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toBe('InvalidRequest')
    }
    for (const body of [{ action: 'join' }, { action: 'join', organizationId: ['x'] }]) expect((await read(await post(ada.jar, '/auth/organizations', body))).status).toBe(400)
    expect((await domainList(ada.jar, org.id)).body.domains).toEqual([])
    // An internationalized name is kept in its ASCII form; the pure function agrees with the route.
    const idn = await domainAct(ada.jar, org.id, { action: 'add', domain: `Bücher-${unique()}.Example` })
    expect(idn.body.domain).toMatch(/^xn--bcher-.*\.example$/)
    expect(normalizeDomain('Bücher.example')).toBe('xn--bcher-kva.example')
    expect(normalizeDomain('sub.acme.co.uk')).toBe('sub.acme.co.uk')
    expect(normalizeDomain('acme.example', (d) => d === 'acme.example')).toBeNull()
    // The error page says it in the request's language.
    const page = await ada.jar.get('/auth/error?error=DomainTaken', { 'accept-language': 'fr' })
    expect(await page.text()).toContain('Une autre organisation a déjà vérifié ce domaine.')
    expect(made.logs.filter((l) => l.startsWith('error'))).toEqual([])
  })

  it('CSRF on every POST: without the token, 403 MissingCSRF and nothing changed', async () => {
    const { made, ada, org } = await setup()
    const domain = freshDomain()
    const claim = (await domainAct(ada.jar, org.id, { action: 'add', domain })).body
    dns.records.set(claim.record.name, [claim.record.value])
    const user = await made.person('user', { domain: freshDomain() })
    const posts: Array<[Jar, string, Record<string, unknown>]> = [
      ...['add', 'verify', 'update', 'remove'].map((action) => [ada.jar, `/auth/organization-domains/${org.id}`, { action, domain: freshDomain(), domainId: claim.id, autoJoin: true }] as [Jar, string, Record<string, unknown>]),
      [user.jar, '/auth/organizations', { action: 'join', organizationId: org.id }],
    ]
    for (const [jar, path, body] of posts) {
      for (const csrfToken of [undefined, 'forged|forged']) {
        expect(await read(await jar.postJson(path, { ...body, ...(csrfToken && { csrfToken }) }, client()))).toMatchObject({ status: 403, body: { error: 'MissingCSRF' } })
      }
      expect((await jar.postForm(path, Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])), client())).status).toBe(403)
    }
    expect((await domainList(ada.jar, org.id)).body.domains).toEqual([{ ...claim, record: undefined }])
    expect(await members(ada.jar, org.id)).toEqual([[ada.id, 'owner']])
  })

  it('freshness, DNS failures and the verification rate limit', async () => {
    const { made, ada, org } = await setup()
    const domain = freshDomain()
    const claim = (await domainAct(ada.jar, org.id, { action: 'add', domain })).body
    // The resolver's own failure (SERVFAIL): not verified, and the server log says why.
    dns.records.set(claim.record.name, 'servfail')
    expect((await domainAct(ada.jar, org.id, { action: 'verify', domainId: claim.id })).body.error).toBe('DomainNotVerified')
    expect(made.logs).toContainEqual(expect.stringMatching(new RegExp(`^warn organizations: the TXT lookup of ${claim.record.name.replace(/\./g, '\\.')} failed \\(ESERVFAIL\\)`)))
    // Two hours on: verifying and changing who joins need a fresh sign-in; adding and removing do not.
    made.clock.now += 2 * 3600_000
    dns.records.set(claim.record.name, [claim.record.value])
    for (const body of [{ action: 'verify', domainId: claim.id }, { action: 'update', domainId: claim.id, autoJoin: true }]) {
      expect(await domainAct(ada.jar, org.id, body)).toMatchObject({ status: 403, body: { error: 'SessionNotFresh' } })
    }
    expect((await domainList(ada.jar, org.id)).body.domains[0]).toMatchObject({ verified: false, autoJoin: false })
    await made.signIn(ada.jar, ada.id)
    expect((await domainAct(ada.jar, org.id, { action: 'update', domainId: claim.id, autoJoin: true, role: 'admin' })).body).toMatchObject({ autoJoin: true, role: 'admin' })
    // Verifications are counted per account: the 31st within an hour is refused before any lookup.
    const other = (await domainAct(ada.jar, org.id, { action: 'add', domain: freshDomain() })).body
    let last: { status: number; body: any } | undefined
    for (let i = 0; i < 31; i++) last = await domainAct(ada.jar, org.id, { action: 'verify', domainId: other.id })
    expect(last).toMatchObject({ status: 429, body: { error: 'RateLimited' } })
    const asked = dns.asked.filter((n) => n === other.record.name).length
    expect(asked).toBeLessThanOrEqual(30)
  })
})
