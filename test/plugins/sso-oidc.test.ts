/**
 * Enterprise sign-in through an OIDC connection (src/plugins/sso) against a real OpenID provider
 * (oidc-provider, the demo's IdP): the admin sets the connection up through its routes, an
 * employee's address finds it (home-realm discovery) and the first sign-in makes the user and the
 * membership (just-in-time). Refused: a tampered state, a callback in a browser that did not
 * start the sign-in, an open redirect; the admin routes' CSRF, IDOR, role, freshness, bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { atIdp, beginSignIn, Browser, callbackOf, deliver, sessionOf, alice, bob } from '../oauth/harness.js'
import { startIdp, type Idp } from '../support/idp.js'
import { get, orgAdmin, post, signedInAs, ssoApp, unverifyDomain, verifyDomain, type SsoApp } from './sso-support.js'

let idp: Idp
let app: SsoApp

beforeAll(async () => {
  const { startApp } = await import('../oauth/harness.js')
  const started = await startApp()
  idp = await startIdp({ clients: [{ client_id: 'acme', client_secret: 'acme-secret', redirect_uris: [`${started.auth}/callback/sso`] }] })
  app = await ssoApp(undefined, {}, started)
})
afterAll(async () => {
  await app?.close()
  await idp?.close()
})

async function oidcConnection(extra: Record<string, unknown> = {}) {
  const admin = await orgAdmin(app)
  const made = await post(admin.browser, app, `/sso-connections/${admin.organizationId}`, {
    action: 'create',
    kind: 'oidc',
    name: 'Acme IdP',
    issuer: idp.issuer,
    clientId: 'acme',
    clientSecret: 'acme-secret',
    domains: ['example.com'],
    ...extra,
  })
  expect(made.status, JSON.stringify(made.body)).toBe(200)
  return { ...admin, connection: made.body }
}

/** POST /signin/sso with `fields`, the IdP's login, and the callback: where the browser ends. */
async function ssoSignIn(browser: Browser, fields: Record<string, string>, user = alice) {
  const started = await browser.postForm(app.auth, '/signin/sso', { callbackUrl: '/dashboard', ...fields })
  expect(started.status, await started.clone().text()).toBe(200)
  const { url } = (await started.json()) as { url: string }
  return deliver(browser, await atIdp(browser, new URL(url), user))
}

describe('an OIDC connection', () => {
  it('signs a new employee in by their address, makes the user (address proven) and the membership with the default role; the second sign-in makes nothing new', async () => {
    const { organizationId, connection } = await oidcConnection()
    expect(connection.serviceProvider).toEqual({ redirectUri: `${app.auth}/callback/sso` })
    expect(JSON.stringify(connection)).not.toContain('acme-secret')
    expect(connection.oidc.hasClientSecret).toBe(true)
    await verifyDomain(app.adapter, organizationId, 'example.com')
    const browser = new Browser()
    const done = await ssoSignIn(browser, { email: 'alice@example.com' })
    expect(done.error).toBeUndefined()
    expect(done.location).toBe(`${app.url}/dashboard`)
    const session = await sessionOf(browser, app)
    expect(session?.user.email).toBe('alice@example.com')
    const user = (await app.adapter.getUserByEmail!('alice@example.com'))!
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect((await app.adapter.getMember(organizationId, user.id))?.role).toBe('member')
    const account = await app.adapter.getUserByAccount!({ provider: 'sso', providerAccountId: `${connection.id}:alice` })
    expect(account?.id).toBe(user.id)
    // Again, in a new browser: the same user, the same membership.
    const again = new Browser()
    expect((await ssoSignIn(again, { email: 'alice@example.com' })).error).toBeUndefined()
    expect((await app.adapter.getUserByEmail!('alice@example.com'))!.id).toBe(user.id)
    expect((await app.adapter.listMembers(organizationId)).filter((m: { userId: string }) => m.userId === user.id)).toHaveLength(1)
  })

  it('vouches for no address of a domain the organization has not verified: discovery finds nothing, and a sign-in by the connection id makes an unproven user', async () => {
    const { connection, organizationId } = await oidcConnection({ domains: ['example.com'], defaultRole: 'auditor' })
    await unverifyDomain(app.adapter, 'example.com')
    const browser = new Browser()
    const found = await get(browser, app, '/sso-discover?email=bob@example.com')
    expect(found.body).toEqual({ domain: 'example.com', connection: null })
    const refused = await browser.postForm(app.auth, '/signin/sso', { email: 'bob@example.com' })
    expect(((await refused.json()) as { url: string }).url).toContain('error=SsoConnectionNotFound')
    const done = await ssoSignIn(browser, { connection: connection.id }, bob)
    expect(done.error).toBeUndefined()
    const user = (await app.adapter.getUserByEmail!('bob@example.com'))!
    expect(user.emailVerified).toBeNull()
    expect((await app.adapter.getMember(organizationId, user.id))?.role).toBe('auditor')
  })

  it('refuses a tampered state, and a callback in a browser that did not start the sign-in; nothing is made', async () => {
    const { organizationId } = await oidcConnection()
    await verifyDomain(app.adapter, organizationId, 'example.com')
    const before = (await app.adapter.listMembers(organizationId)).length
    const browser = new Browser()
    const started = await browser.postForm(app.auth, '/signin/sso', { email: 'alice@example.com' })
    const callback = callbackOf(await atIdp(browser, new URL(((await started.json()) as { url: string }).url), alice))
    const tampered = new URL(callback)
    tampered.searchParams.set('state', 'forged')
    const other = new Browser()
    // Another browser (login CSRF: the attacker's code in the victim's browser) holds no flow cookie.
    for (const [who, url] of [[other, callback], [browser, tampered]] as const) {
      const done = await deliver(who, url)
      expect(done.error).toBe('SsoSignInError')
      expect(await sessionOf(who, app)).toBeNull()
    }
    expect((await app.adapter.listMembers(organizationId)).length).toBe(before)
  })

  it('sends the browser only to its own origin afterwards, whatever callbackUrl asked', async () => {
    const { organizationId } = await oidcConnection()
    await verifyDomain(app.adapter, organizationId, 'example.com')
    const browser = new Browser()
    const started = await browser.postForm(app.auth, '/signin/sso', { email: 'alice@example.com', callbackUrl: 'https://evil.example/steal' })
    const done = await deliver(browser, await atIdp(browser, new URL(((await started.json()) as { url: string }).url), alice))
    expect(new URL(done.location).origin).toBe(app.url)
  })
})

describe('the admin routes', () => {
  it('refuse a POST without the CSRF token, a member whose role lacks sso:manage, and another organization\'s admin (as not found); nothing changes', async () => {
    const { browser, organizationId, connection } = await oidcConnection()
    expect((await post(browser, app, `/sso-connections/${organizationId}`, { action: 'delete', id: connection.id }, false)).status).toBe(403)
    const stranger = await orgAdmin(app)
    for (const path of [`/sso-connections/${organizationId}`]) {
      expect((await get(stranger.browser, app, path)).body.error).toBe('OrganizationNotFound')
      expect((await post(stranger.browser, app, path, { action: 'delete', id: connection.id })).body.error).toBe('OrganizationNotFound')
    }
    // Their own organization's route, naming this organization's connection: not found.
    const idor = await post(stranger.browser, app, `/sso-connections/${stranger.organizationId}`, { action: 'update', id: connection.id, name: 'Stolen' })
    expect(idor).toMatchObject({ status: 404, body: { error: 'SsoConnectionNotFound' } })
    const member = await signedInAs(app)
    await app.adapter.addMember({ id: crypto.randomUUID(), organizationId, userId: member.userId, role: 'member', joinedAt: new Date() })
    expect((await get(member.browser, app, `/sso-connections/${organizationId}`)).body.error).toBe('OrganizationForbidden')
    const listed = await get(browser, app, `/sso-connections/${organizationId}`)
    expect(listed.body.connections.map((c: { id: string; name: string }) => [c.id, c.name])).toEqual([[connection.id, 'Acme IdP']])
    expect(JSON.stringify(listed.body)).not.toContain('acme-secret')
  })

  it('answer bad input with a 400 that names the field, and make nothing', async () => {
    const { browser, organizationId } = await orgAdmin(app)
    const path = `/sso-connections/${organizationId}`
    const cases: Array<Record<string, unknown>> = [
      { kind: 'ldap', name: 'x' },
      { kind: 'oidc', name: 'x', issuer: 'http://evil.example', clientId: 'c' },
      { kind: 'oidc', name: 'x', issuer: idp.issuer, clientId: 'c', domains: ['not a domain'] },
      { kind: 'oidc', name: 'x', issuer: idp.issuer, clientId: 'c', defaultRole: 'owner' },
      { kind: 'oidc', name: 'x', issuer: idp.issuer, clientId: 'c', groupRoles: { admins: 'emperor' } },
      { kind: 'oidc', name: ['x'], issuer: idp.issuer, clientId: 'c' },
      { kind: 'saml', name: 'x', metadataXml: '<not-xml' },
      { kind: 'saml', name: 'x', metadataXml: '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>' },
    ]
    for (const fields of cases) {
      const answer = await post(browser, app, path, { action: 'create', ...fields })
      expect(answer.status, JSON.stringify(fields)).toBe(400)
      expect(['InvalidRequest', 'SsoConnectionInvalid']).toContain(answer.body.error)
    }
    expect((await get(browser, app, path)).body.connections).toEqual([])
  })

  it('test a connection by reaching its issuer, keep the secret when an update leaves it out, and delete', async () => {
    const { browser, organizationId, connection } = await oidcConnection()
    const path = `/sso-connections/${organizationId}`
    expect((await post(browser, app, path, { action: 'test', id: connection.id })).body.ok).toBe(true)
    const renamed = await post(browser, app, path, { action: 'update', id: connection.id, name: 'Renamed', groupRoles: { admins: 'admin' } })
    expect(renamed.body).toMatchObject({ name: 'Renamed', groupRoles: { admins: 'admin' }, oidc: { hasClientSecret: true } })
    expect((await post(browser, app, path, { action: 'delete', id: connection.id })).body).toEqual({ deleted: connection.id })
    expect(await app.adapter.getSsoConnection(connection.id)).toBeNull()
  })
})
