/**
 * A real SAML identity provider for the sso tests: samlify in its IdP role, with a fresh RSA key
 * and self-signed certificate (openssl), its metadata for the admin to paste, and responses it
 * signs for the service provider's metadata. `response` builds the XML from values a test
 * chooses (times, audience, recipient, NameID, attributes), which samlify then signs.
 * `samlIdpServer` puts it behind HTTP, as a browser meets it.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inflateRawSync } from 'node:zlib'
import * as samlify from 'samlify'
import * as validator from '@authenio/samlify-node-xmllint'
import { DOMParser } from '@xmldom/xmldom'

samlify.setSchemaValidator(validator)

const redirect = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
const emailFormat = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'

export function keyPair(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sso-idp-'))
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=test-idp', '-days', '2', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' })
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface Assertion {
  inResponseTo?: string
  audience?: string
  recipient?: string
  issuer?: string
  nameId?: string
  /** Minutes from now the assertion stops being valid; negative: expired. */
  validMinutes?: number
  attributes?: Record<string, string | string[]>
  /** Raw XML to put in place of the NameID's text (a comment, say). */
  nameIdXml?: string
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')

export function samlIdp(entityID = 'https://idp.acme.test/metadata', keys = keyPair(), ssoUrl = 'https://idp.acme.test/sso') {
  const idp = samlify.IdentityProvider({
    entityID,
    privateKey: keys.key,
    signingCert: keys.cert,
    singleSignOnService: [{ Binding: redirect, Location: ssoUrl }],
    nameIDFormat: [emailFormat],
  })
  let seq = 0
  const id = () => `_idp${Date.now().toString(36)}${++seq}${Math.random().toString(36).slice(2)}`

  function xml(sp: { entityId: string; acsUrl: string }, a: Assertion, ids: { response: string; assertion: string }): string {
    const now = new Date()
    const until = new Date(now.getTime() + (a.validMinutes ?? 5) * 60_000).toISOString()
    const before = new Date(Math.min(now.getTime(), Date.parse(until) - 120_000)).toISOString()
    const inResponseTo = a.inResponseTo ? ` InResponseTo="${esc(a.inResponseTo)}"` : ''
    const attributes = Object.entries(a.attributes ?? {})
      .map(([name, values]) => `<saml:Attribute Name="${esc(name)}">${(Array.isArray(values) ? values : [values]).map((v) => `<saml:AttributeValue xsi:type="xs:string">${esc(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`)
      .join('')
    const issuer = esc(a.issuer ?? entityID)
    return (
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${ids.response}" Version="2.0" IssueInstant="${before}" Destination="${esc(a.recipient ?? sp.acsUrl)}"${inResponseTo}>` +
      `<saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="${ids.assertion}" Version="2.0" IssueInstant="${before}">` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${emailFormat}">${a.nameIdXml ?? esc(a.nameId ?? 'ada@acme.test')}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${esc(a.recipient ?? sp.acsUrl)}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${before}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${esc(a.audience ?? sp.entityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${before}" SessionIndex="${ids.assertion}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
      `</saml:Assertion></samlp:Response>`
    )
  }

  return {
    entityID,
    metadata: idp.getMetadata(),
    keys,
    /** The request id of an SP-initiated redirect, as the IdP reads it (samlify parses and checks the request). */
    async readRequest(spMetadata: string, url: URL): Promise<{ id: string; relayState: string | null }> {
      const sp = samlify.ServiceProvider({ metadata: spMetadata })
      const parsed = await idp.parseLoginRequest(sp, 'redirect', { query: Object.fromEntries(url.searchParams), octetString: '' })
      const id = parsed.extract?.request?.id as string
      // samlify's answer, checked against the raw request, so a test never signs an id it did not read.
      if (!inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8').includes(`ID="${id}"`)) throw new Error('request id mismatch')
      return { id, relayState: url.searchParams.get('RelayState') }
    },
    /** A response signed by samlify (the assertion, as the SP's metadata asks), base64. */
    async signed(spMetadata: string, sp: { entityId: string; acsUrl: string }, a: Assertion = {}): Promise<string> {
      const entity = samlify.ServiceProvider({ metadata: spMetadata })
      const ids = { response: id(), assertion: id() }
      const { context } = await idp.createLoginResponse(entity, { extract: { request: { id: a.inResponseTo ?? '' } } }, 'post', { email: a.nameId ?? 'ada@acme.test' }, {
        customTagReplacement: () => ({ id: ids.response, context: xml(sp, a, ids) }),
      } as never)
      return context
    },
    /** The same XML, not signed at all. */
    unsigned(sp: { entityId: string; acsUrl: string }, a: Assertion = {}): string {
      return Buffer.from(xml(sp, a, { response: id(), assertion: id() })).toString('base64')
    },
  }
}

/** What the IdP front read from an AuthnRequest it answered. */
export interface AnsweredRequest {
  issuer: string
  acsUrl: string
  id: string
  relayState: string | null
}

/**
 * The IdP's sign-in over HTTP on 127.0.0.1 (another site than the app's localhost), its metadata
 * pointing there: GET /sso with an HTTP-Redirect AuthnRequest from a service provider it `trust`s
 * answers an HTML form that posts the signed SAMLResponse and the RelayState to the request's ACS
 * URL by itself, as a real IdP does once its user signed in. `assertion`: what the next answers
 * say (the user; a wrong audience, say); `answered`: the requests it answered.
 */
export async function samlIdpServer() {
  const trusted = new Map<string, string>()
  const answered: AnsweredRequest[] = []
  const server = createServer((req, res) => {
    answer(new URL(req.url ?? '/', front.origin)).then(
      ({ status, html }) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const idp = samlIdp(`${origin}/metadata`, keyPair(), `${origin}/sso`)

  async function answer(url: URL): Promise<{ status: number; html: string }> {
    const encoded = url.searchParams.get('SAMLRequest')
    if (url.pathname !== '/sso' || !encoded) return { status: 404, html: 'not found' }
    const request = new DOMParser().parseFromString(inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8'), 'text/xml').documentElement!
    const issuer = request.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0]?.textContent ?? ''
    const acsUrl = request.getAttribute('AssertionConsumerServiceURL') ?? ''
    const metadata = trusted.get(issuer)
    // A real IdP posts only to an ACS its service provider's metadata names.
    if (!metadata || !metadata.includes(`Location="${esc(acsUrl)}"`)) return { status: 403, html: 'unknown service provider' }
    const { id, relayState } = await idp.readRequest(metadata, url)
    answered.push({ issuer, acsUrl, id, relayState })
    const response = await idp.signed(metadata, { entityId: issuer, acsUrl }, { inResponseTo: id, ...front.assertion })
    const field = (name: string, value: string) => `<input type="hidden" name="${name}" value="${esc(value)}">`
    return {
      status: 200,
      html:
        `<!doctype html><html lang="en"><meta charset="utf-8"><title>Signing you in</title>` +
        `<form method="post" action="${esc(acsUrl)}">${field('SAMLResponse', response)}${relayState === null ? '' : field('RelayState', relayState)}<noscript><button>Continue</button></noscript></form>` +
        `<script>document.forms[0].submit()</script></html>`,
    }
  }

  const front = {
    ...idp,
    origin,
    answered,
    assertion: {} as Assertion,
    /** The service provider's metadata, as its admin gives it to the IdP. */
    trust(spMetadata: string) {
      const entityId = /entityID="([^"]+)"/.exec(spMetadata)?.[1]
      if (!entityId) throw new Error('no entityID in the metadata')
      trusted.set(entityId, spMetadata)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  return front
}
