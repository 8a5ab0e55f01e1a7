/**
 * A SAML connection's IdP settings, as the admin gives them: the IdP's metadata (XML pasted, or a
 * URL the server reads once, now), or its three values typed in (entity id, sign-in URL, signing
 * certificate). Metadata is read as plain XML (@xmldom/xmldom, which @node-saml/node-saml brings):
 * nothing here checks a signature; the certificates it yields are what node-saml checks against.
 */
import { AuthError, type Body } from 'latchkey/server'
import { connectionInvalid } from './errors.js'
import { readFlag, readIdpUrl, readText } from './fields.js'
import type { Resolved } from './options.js'
import type { SamlSettings } from './records.js'
import { loadSamlLibrary } from './saml-library.js'

const md = 'urn:oasis:names:tc:SAML:2.0:metadata'
const ds = 'http://www.w3.org/2000/09/xmldsig#'
const redirectBinding = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
const maxMetadata = 256 * 1024

/** xmldom's node lists are not iterable: its elements of one name in the metadata namespace, as an array. */
function named(node: Document | Element, ns: string, name: string): Element[] {
  const found = node.getElementsByTagNameNS(ns, name)
  return Array.from({ length: found.length }, (_, i) => found.item(i)!)
}

/** A certificate's base64 body, from PEM or bare base64; null where it is neither. */
export function certificateOf(text: string): string | null {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '')
  return /^[A-Za-z0-9+/]{100,}={0,2}$/.test(body) && body.length < 20_000 ? body : null
}

export async function readSamlSettings(body: Body, options: Resolved, held: SamlSettings | undefined): Promise<SamlSettings> {
  const metadataXml = readText(body, 'metadataXml', maxMetadata)
  const metadataUrl = readIdpUrl(body, 'metadataUrl', options.allowLoopbackHttp)
  const typed = { idpEntityId: readText(body, 'idpEntityId', 1000), ssoUrl: readIdpUrl(body, 'ssoUrl', options.allowLoopbackHttp), certificate: readText(body, 'certificate', 20_000) }
  let read: Pick<SamlSettings, 'idpEntityId' | 'ssoUrl' | 'certificates'> | undefined
  if (metadataXml) read = await parseMetadata(metadataXml, options)
  else if (metadataUrl) read = await parseMetadata(await fetchMetadata(metadataUrl), options)
  else if (typed.idpEntityId || typed.ssoUrl || typed.certificate) {
    const certificate = typed.certificate ? certificateOf(typed.certificate) : null
    if (typed.certificate && !certificate) throw new AuthError('InvalidRequest', 'Expected "certificate" to be the IdP\'s signing certificate, in PEM or base64', { status: 400 })
    const idpEntityId = typed.idpEntityId ?? held?.idpEntityId
    const ssoUrl = typed.ssoUrl ?? held?.ssoUrl
    const certificates = certificate ? [certificate] : held?.certificates
    if (!idpEntityId || !ssoUrl || !certificates?.length) throw new AuthError('InvalidRequest', 'Expected the IdP\'s metadata ("metadataXml" or "metadataUrl"), or all of "idpEntityId", "ssoUrl" and "certificate"', { status: 400 })
    read = { idpEntityId, ssoUrl, certificates }
  }
  if (!read && !held) throw new AuthError('InvalidRequest', 'Expected the IdP\'s metadata ("metadataXml" or "metadataUrl"), or all of "idpEntityId", "ssoUrl" and "certificate"', { status: 400 })
  return {
    ...(held ?? { metadataUrl: null, idpInitiated: false, wantAssertionsSigned: true }),
    ...read,
    ...(metadataUrl !== undefined && { metadataUrl }),
    ...(metadataXml !== undefined && { metadataUrl: null }),
    idpInitiated: readFlag(body, 'idpInitiated') ?? held?.idpInitiated ?? false,
    wantAssertionsSigned: readFlag(body, 'wantAssertionsSigned') ?? held?.wantAssertionsSigned ?? true,
  } as SamlSettings
}

async function fetchMetadata(url: string): Promise<string> {
  let response: Response
  try {
    response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(10_000), headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' } })
  } catch {
    throw connectionInvalid(`the metadata URL ${new URL(url).origin} could not be reached`)
  }
  const text = response.ok ? await response.text() : ''
  if (!response.ok || !text || text.length > maxMetadata) throw connectionInvalid(`the metadata URL answered HTTP ${response.status} without metadata of at most ${maxMetadata / 1024} KiB`)
  return text
}

async function parseMetadata(xml: string, options: Resolved): Promise<Pick<SamlSettings, 'idpEntityId' | 'ssoUrl' | 'certificates'>> {
  const { DOMParser } = await loadSamlLibrary('@xmldom/xmldom', () => import('@xmldom/xmldom'))
  // A document type (and so an entity) is refused outright: metadata has no use for one.
  if (/<!DOCTYPE/i.test(xml)) throw connectionInvalid('the metadata has a document type declaration')
  let doc: Document
  try {
    doc = new DOMParser({ errorHandler: { error: () => { throw new Error('malformed') }, fatalError: () => { throw new Error('malformed') } } }).parseFromString(xml, 'text/xml') as unknown as Document
  } catch {
    throw connectionInvalid('the metadata is not well-formed XML')
  }
  const entities = named(doc, md, 'EntityDescriptor')
  const entity = entities.find((e) => named(e, md, 'IDPSSODescriptor').length > 0)
  if (!entity) throw connectionInvalid('the metadata has no identity provider (IDPSSODescriptor)')
  const idp = named(entity, md, 'IDPSSODescriptor')[0]!
  const idpEntityId = entity.getAttribute('entityID')
  if (!idpEntityId) throw connectionInvalid('the metadata names no entityID')
  const sso = named(idp, md, 'SingleSignOnService').find((s) => s.getAttribute('Binding') === redirectBinding)
  const ssoUrl = sso?.getAttribute('Location') ?? ''
  if (!ssoUrl || !readIdpUrl({ ssoUrl }, 'ssoUrl', options.allowLoopbackHttp)) throw connectionInvalid('the metadata has no HTTP-Redirect SingleSignOnService at an https URL')
  const certificates: string[] = []
  for (const key of named(idp, md, 'KeyDescriptor')) {
    const use = key.getAttribute('use')
    if (use && use !== 'signing') continue
    for (const cert of named(key, ds, 'X509Certificate')) {
      const body = certificateOf(cert.textContent ?? '')
      if (body && !certificates.includes(body)) certificates.push(body)
    }
  }
  if (!certificates.length) throw connectionInvalid('the metadata has no signing certificate')
  return { idpEntityId, ssoUrl, certificates }
}
