/**
 * A real SAML identity provider for the sso tests: samlify in its IdP role, with a fresh RSA key
 * and self-signed certificate (openssl), its metadata for the admin to paste, and responses it
 * signs for the service provider's metadata. `response` builds the XML from values a test
 * chooses (times, audience, recipient, NameID, attributes), which samlify then signs.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inflateRawSync } from 'node:zlib'
import * as samlify from 'samlify'
import * as validator from '@authenio/samlify-node-xmllint'

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

export function samlIdp(entityID = 'https://idp.acme.test/metadata', keys = keyPair()) {
  const idp = samlify.IdentityProvider({
    entityID,
    privateKey: keys.key,
    signingCert: keys.cert,
    singleSignOnService: [{ Binding: redirect, Location: 'https://idp.acme.test/sso' }],
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
