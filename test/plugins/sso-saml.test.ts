/**
 * Enterprise sign-in through a SAML 2.0 connection (src/plugins/sso, @node-saml/node-saml as the
 * service provider) against a real IdP implementation, samlify in its IdP role: SP-initiated and
 * IdP-initiated sign-ins, attribute and group mapping, and the refusals: an unsigned assertion,
 * signature wrapping (XSW variants), another audience, another recipient, another issuer, an
 * expired assertion, a replay (on another server sharing the store too), a comment-truncated
 * NameID, an answer to a request another browser made, a tampered RelayState, an open redirect.
 * The IdP's POST reaches the ACS with no cookie, as a browser sends a cross-site POST.
 */
import { DOMParser, XMLSerializer } from '@xmldom/xmldom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Browser, sessionOf, startApp } from '../oauth/harness.js'
import { samlIdp, type Assertion } from './sso-saml-idp.js'
import { get, orgAdmin, post, ssoApp, verifyDomain, type SsoApp } from './sso-support.js'

let app: SsoApp
let other: SsoApp
const idp = samlIdp()

beforeAll(async () => {
  app = await ssoApp()
  // A second server on the same store: a replay is refused whichever server it reaches.
  other = await ssoApp(app.adapter)
})
afterAll(async () => {
  await app?.close()
  await other?.close()
})

async function samlConnection(extra: Record<string, unknown> = {}) {
  const admin = await orgAdmin(app)
  const made = await post(admin.browser, app, `/sso-connections/${admin.organizationId}`, {
    action: 'create',
    kind: 'saml',
    name: 'Acme SAML',
    metadataXml: idp.metadata,
    domains: ['acme.test'],
    groupRoles: { 'acme-admins': 'admin', 'acme-auditors': 'auditor' },
    ...extra,
  })
  expect(made.status, JSON.stringify(made.body) + app.logs.join('\n')).toBe(200)
  await verifyDomain(app.adapter, admin.organizationId, 'acme.test')
  const sp = made.body.serviceProvider as { entityId: string; acsUrl: string; metadataUrl: string }
  const metadata = await (await fetch(sp.metadataUrl)).text()
  return { ...admin, connection: made.body, sp, metadata }
}

type Setup = Awaited<ReturnType<typeof samlConnection>>

/** POST /signin/sso: the redirect to the IdP, and the request as the IdP reads it. */
async function startAtIdp(browser: Browser, s: Setup, fields: Record<string, string> = {}) {
  const started = await browser.postForm(app.auth, '/signin/sso', { connection: s.connection.id, callbackUrl: '/dashboard', ...fields })
  const { url } = (await started.json()) as { url: string }
  expect(url).toMatch(/^https:\/\/idp\.acme\.test\/sso\?SAMLRequest=/)
  return idp.readRequest(s.metadata, new URL(url))
}

/** The IdP's POST to the ACS (no cookies: cross-site), then the browser's GET of the hand-off. */
async function deliver(browser: Browser, acsUrl: string, SAMLResponse: string, RelayState?: string, to = app) {
  const acs = acsUrl.replace(app.url, to.url)
  const posted = await fetch(acs, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ SAMLResponse, ...(RelayState !== undefined && { RelayState }) }) })
  const first = posted.headers.get('location') ?? ''
  if (posted.status !== 303) return { location: first, error: new URL(first, acs).searchParams.get('error') ?? `HTTP ${posted.status}` }
  const done = await browser.request(new URL(first, acs).href)
  const location = done.headers.get('location') ?? ''
  return { location, error: location.includes('/auth/error') ? new URL(location, acs).searchParams.get('error') : undefined }
}

async function spInitiated(s: Setup, a: Assertion = {}, browser = new Browser()) {
  const request = await startAtIdp(browser, s)
  const response = await idp.signed(s.metadata, s.sp, { inResponseTo: request.id, ...a })
  return { browser, request, response, done: await deliver(browser, s.sp.acsUrl, response, request.relayState ?? undefined) }
}

describe('a SAML connection', () => {
  it('serves its SP metadata (entity id, ACS) and shows the values to give the IdP', async () => {
    const s = await samlConnection()
    expect(s.connection.serviceProvider).toEqual({ entityId: `${app.auth}/saml-metadata/${s.connection.id}`, acsUrl: `${app.auth}/saml-acs/${s.connection.id}`, metadataUrl: `${app.auth}/saml-metadata/${s.connection.id}` })
    expect(s.metadata).toContain(`entityID="${s.sp.entityId}"`)
    expect(s.metadata).toContain(`Location="${s.sp.acsUrl}"`)
    expect(s.metadata).toContain('WantAssertionsSigned="true"')
    expect(s.connection.saml).toMatchObject({ idpEntityId: idp.entityID, ssoUrl: 'https://idp.acme.test/sso', certificates: 1, idpInitiated: false })
    expect((await get(new Browser(), app, `/saml-metadata/${crypto.randomUUID()}`)).status).toBe(404)
  })

  it('SP-initiated: signs the user in, maps email, name and groups, makes the member with the highest role their groups give', async () => {
    const s = await samlConnection()
    const email = `ada-${crypto.randomUUID().slice(0, 8)}@acme.test`
    const { browser, done } = await spInitiated(s, { nameId: `ada-${crypto.randomUUID()}`, attributes: { email, name: 'Ada L', groups: ['acme-auditors', 'acme-admins', 'other'] } })
    expect(done.error).toBeUndefined()
    expect(done.location).toBe(`${app.url}/dashboard`)
    expect((await sessionOf(browser, app))?.user).toMatchObject({ email, name: 'Ada L' })
    const user = (await app.adapter.getUserByEmail!(email))!
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect((await app.adapter.getMember(s.organizationId, user.id))?.role).toBe('admin')
  })

  it('IdP-initiated: refused until the admin turns it on; then signs in, and its RelayState cannot send the browser off-site', async () => {
    const s = await samlConnection()
    const email = `idp-${crypto.randomUUID().slice(0, 8)}@acme.test`
    const browser = new Browser()
    expect((await deliver(browser, s.sp.acsUrl, await idp.signed(s.metadata, s.sp, { nameId: email }))).error).toBe('SsoSignInError')
    expect(await app.adapter.getUserByEmail!(email)).toBeNull()
    await post(s.browser, app, `/sso-connections/${s.organizationId}`, { action: 'update', id: s.connection.id, idpInitiated: true })
    const done = await deliver(browser, s.sp.acsUrl, await idp.signed(s.metadata, s.sp, { nameId: email }), 'https://evil.example/phish')
    expect(done.error).toBeUndefined()
    expect(new URL(done.location).origin).toBe(app.url)
    expect((await sessionOf(browser, app))?.user.email).toBe(email)
    const inApp = await deliver(new Browser(), s.sp.acsUrl, await idp.signed(s.metadata, s.sp, { nameId: email }), '/projects/1')
    expect(inApp.location).toBe(`${app.url}/projects/1`)
  })
})

/** A signed response's XML, changed by `edit`, base64 again: the signature stays what samlify made. */
function tamper(base64: string, edit: (doc: Document) => void): string {
  const doc = new DOMParser().parseFromString(Buffer.from(base64, 'base64').toString('utf8'), 'text/xml') as unknown as Document
  edit(doc)
  return Buffer.from(new XMLSerializer().serializeToString(doc as never)).toString('base64')
}
const assertionNS = 'urn:oasis:names:tc:SAML:2.0:assertion'
const first = (node: Document | Element, name: string) => node.getElementsByTagNameNS(assertionNS, name)[0]!
const signatureOf = (el: Element) => Array.from({ length: el.childNodes.length }, (_, i) => el.childNodes.item(i) as Element).find((n) => n.localName === 'Signature')

describe('refused, with no user, membership or session made', () => {
  let s: Setup
  beforeAll(async () => {
    s = await samlConnection()
  })

  async function refused(make: (request: { id: string; relayState: string | null }) => Promise<string> | string, expectEmail = 'victim@acme.test', relay?: (r: string | null) => string | undefined) {
    const browser = new Browser()
    const request = await startAtIdp(browser, s)
    const done = await deliver(browser, s.sp.acsUrl, await make(request), relay ? relay(request.relayState) : (request.relayState ?? undefined))
    expect(done.error).toBe('SsoSignInError')
    expect(await sessionOf(browser, app)).toBeNull()
    expect(await app.adapter.getUserByEmail!(expectEmail)).toBeNull()
  }

  it('an unsigned assertion', () => refused((r) => idp.unsigned(s.sp, { inResponseTo: r.id, nameId: 'victim@acme.test' })))

  it('an assertion signed by another key', async () => {
    const impostor = samlIdp(idp.entityID)
    await refused(async (r) => impostor.signed(s.metadata, s.sp, { inResponseTo: r.id, nameId: 'victim@acme.test' }))
  })

  it('another audience, another recipient, another issuer', async () => {
    for (const a of [{ audience: 'https://other-sp.example/metadata' }, { recipient: `${app.auth}/saml-acs/${crypto.randomUUID()}` }, { issuer: 'https://evil-idp.example' }]) {
      await refused(async (r) => idp.signed(s.metadata, s.sp, { inResponseTo: r.id, nameId: 'victim@acme.test', ...a }))
    }
  })

  it('an expired assertion', () => refused(async (r) => idp.signed(s.metadata, s.sp, { inResponseTo: r.id, nameId: 'victim@acme.test', validMinutes: -5 })))

  it('signature wrapping: an unsigned assertion beside the signed one, wrapping it, or in its place with the signed one hidden', async () => {
    const evil = (doc: Document) => {
      const signed = first(doc, 'Assertion')
      const copy = signed.cloneNode(true) as Element
      copy.setAttribute('ID', `_evil${crypto.randomUUID()}`)
      first(copy, 'NameID').textContent = 'victim@acme.test'
      const sig = signatureOf(copy)
      if (sig) copy.removeChild(sig)
      return { signed, copy }
    }
    const variants: Array<(doc: Document) => void> = [
      // XSW: the evil assertion first, the signed one after it.
      (doc) => {
        const { signed, copy } = evil(doc)
        signed.parentNode!.insertBefore(copy, signed)
      },
      // XSW: the signed one after the evil one.
      (doc) => {
        const { signed, copy } = evil(doc)
        signed.parentNode!.appendChild(copy)
      },
      // XSW: the evil assertion wraps the signed one.
      (doc) => {
        const { signed, copy } = evil(doc)
        signed.parentNode!.replaceChild(copy, signed)
        copy.appendChild(signed)
      },
      // XSW: the evil assertion in its place, carrying the signature; the signed one hidden in Extensions.
      (doc) => {
        const { signed, copy } = evil(doc)
        const response = signed.parentNode as Element
        copy.insertBefore(signatureOf(signed)!.cloneNode(true), copy.firstChild!.nextSibling)
        response.replaceChild(copy, signed)
        const extensions = doc.createElementNS('urn:oasis:names:tc:SAML:2.0:protocol', 'samlp:Extensions')
        extensions.appendChild(signed)
        response.insertBefore(extensions, response.firstChild!.nextSibling)
      },
      // The signed assertion's own content changed after signing.
      (doc) => {
        first(doc, 'NameID').textContent = 'victim@acme.test'
      },
    ]
    for (const edit of variants) await refused(async (r) => tamper(await idp.signed(s.metadata, s.sp, { inResponseTo: r.id, nameId: 'mallory@acme.test' }), edit))
  })

  it('a replayed assertion, on this server and on another sharing the store', async () => {
    const { response, request, done } = await spInitiated(s, { nameId: `once-${crypto.randomUUID()}@acme.test` })
    expect(done.error).toBeUndefined()
    for (const to of [app, other]) {
      const again = await deliver(new Browser(), s.sp.acsUrl, response, request.relayState ?? undefined, to)
      expect(again.error).toBe('SsoSignInError')
    }
  })

  it('a comment-truncated NameID: the name is read whole, as signed, never cut at the comment', async () => {
    const whole = `victim@acme.test.mallory-${crypto.randomUUID().slice(0, 6)}.example`
    const cut = whole.replace('victim@acme.test', 'victim@acme.test<!---->')
    const { browser, done } = await spInitiated(s, { nameIdXml: cut })
    // The signature covers the text without the comment; whoever signs in is the whole name's user.
    expect(done.error).toBeUndefined()
    expect((await sessionOf(browser, app))?.user.email).toBe(whole)
    expect(await app.adapter.getUserByEmail!('victim@acme.test')).toBeNull()
  })

  it('an answer to a request another browser made, a tampered RelayState, and a hand-off used twice', async () => {
    // Login CSRF: the attacker's own response, delivered into the victim's browser.
    const attacker = new Browser()
    const request = await startAtIdp(attacker, s)
    const response = await idp.signed(s.metadata, s.sp, { inResponseTo: request.id, nameId: 'victim@acme.test' })
    const victim = new Browser()
    expect((await deliver(victim, s.sp.acsUrl, response, request.relayState ?? undefined)).error).toBe('SsoSignInError')
    await refused(async (r) => idp.signed(s.metadata, s.sp, { inResponseTo: r.id, nameId: 'victim@acme.test' }), 'victim@acme.test', () => 'tampered')
    // The hand-off URL, replayed in the same browser after it signed in.
    const browser = new Browser()
    const asked = await startAtIdp(browser, s)
    const signed = await idp.signed(s.metadata, s.sp, { inResponseTo: asked.id, nameId: `hand-${crypto.randomUUID()}@acme.test` })
    const posted = await fetch(s.sp.acsUrl, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ SAMLResponse: signed, RelayState: asked.relayState! }) })
    const handoff = posted.headers.get('location')!
    expect((await browser.request(handoff)).headers.get('location')).toBe(`${app.url}/dashboard`)
    expect((await browser.request(handoff)).headers.get('location')).toContain('error=SsoSignInError')
  })

  it('bad input at the ACS: no SAMLResponse, one that is not base64 XML, an unknown connection', async () => {
    for (const body of [{}, { SAMLResponse: 'not-xml' }, { SAMLResponse: Buffer.from('<x/>').toString('base64') }] as Array<Record<string, string>>) {
      const answer = await fetch(s.sp.acsUrl, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) })
      expect(answer.status).toBe(302)
      expect(answer.headers.get('location')).toContain('error=SsoSignInError')
    }
    const unknown = await fetch(`${app.auth}/saml-acs/${crypto.randomUUID()}`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ SAMLResponse: 'x' }) })
    expect(unknown.headers.get('location')).toContain('error=SsoConnectionNotFound')
    expect(app.logs.filter((l) => l.startsWith('error'))).toEqual([])
  })
})
