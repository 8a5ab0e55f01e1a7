/**
 * `<latchkey-sso-setup>`'s "Add a connection": OIDC (issuer, client id, secret) or SAML (the IdP's
 * metadata pasted or its URL), then domains and the role people who sign in get. Only the chosen
 * protocol's fields show; a refusal names its field (the one the server names in its message).
 */
import type { SsoConnectionFields } from '../client/index.js'
import { h } from './dom.js'
import { invalid, roleWords, takenName } from './organization-roles.js'
import type { SsoKey } from './sso-words.js'

type Field = HTMLInputElement | HTMLTextAreaElement

const input = (name: string, extra: Record<string, unknown> = {}) =>
  h('input', { name, id: `sso-${name}`, autocomplete: 'off', part: `input ${name}-input`, dir: 'ltr', spellcheck: false, ...extra })

export class ConnectionForm {
  oidc = h('input', { type: 'radio', name: 'kind', value: 'oidc', id: 'sso-kind-oidc', checked: true, part: 'radio kind-oidc' })
  saml = h('input', { type: 'radio', name: 'kind', value: 'saml', id: 'sso-kind-saml', part: 'radio kind-saml' })
  name = input('name', { dir: 'auto', required: true, maxlength: 100 })
  issuer = input('issuer', { type: 'url', required: true })
  clientId = input('clientId', { required: true })
  clientSecret = input('clientSecret', { type: 'password', autocomplete: 'new-password' })
  metadataXml = h('textarea', { name: 'metadataXml', id: 'sso-metadataXml', part: 'input metadata-xml-input', dir: 'ltr', spellcheck: false, rows: 4 })
  metadataUrl = input('metadataUrl', { type: 'url' })
  domains = input('domains')
  role = h('select', { name: 'defaultRole', id: 'sso-defaultRole', part: 'input default-role-input' })
  save = h('button', { type: 'submit', part: 'button primary add-connection' })
  legend = h('legend', { part: 'label' })
  private oidcPart = h('div', { class: 'stack', part: 'oidc-fields' }, ...[this.issuer, this.clientId, this.clientSecret].map((f) => this.label(f)))
  private samlPart = h('div', { class: 'stack', part: 'saml-fields' }, this.label(this.metadataXml), this.label(this.metadataUrl))
  form: HTMLFormElement
  constructor(submit: () => void) {
    const kind = () => this.showKind()
    this.oidc.addEventListener('change', kind)
    this.saml.addEventListener('change', kind)
    this.form = h('form', { part: 'form connection-form', novalidate: true, onsubmit: (e: Event) => (e.preventDefault(), submit()) },
      h('fieldset', { part: 'kind' }, this.legend,
        h('label', { class: 'row', for: this.oidc.id }, this.oidc, h('span', {}, 'OpenID Connect (OIDC)')),
        h('label', { class: 'row', for: this.saml.id }, this.saml, h('span', {}, 'SAML 2.0')),
      ),
      this.label(this.name), this.oidcPart, this.samlPart, this.label(this.domains), this.label(this.role),
      h('div', { class: 'row' }, this.save),
    )
    this.showKind()
  }
  private label(field: Field | HTMLSelectElement) {
    return h('label', { part: 'label', for: field.id }, h('span', { 'data-for': field.name }), field)
  }
  get kind(): 'oidc' | 'saml' {
    return this.saml.checked ? 'saml' : 'oidc'
  }
  private showKind() {
    this.oidcPart.hidden = this.kind !== 'oidc'
    this.samlPart.hidden = this.kind !== 'saml'
  }
  /** Its words in the element's language, and the roles it offers (never owner). */
  words(p: (key: SsoKey) => string, roles: string[]) {
    const said: Record<string, SsoKey> = { name: 'ssoName', issuer: 'ssoIssuer', clientId: 'ssoClientId', clientSecret: 'ssoClientSecret', metadataXml: 'ssoMetadataXml', metadataUrl: 'ssoMetadataUrl', domains: 'ssoDomains', defaultRole: 'ssoDefaultRole' }
    for (const span of this.form.querySelectorAll<HTMLElement>('span[data-for]')) span.textContent = p(said[span.dataset.for!]!)
    this.legend.textContent = p('ssoKind')
    this.form.setAttribute('aria-label', p('ssoAddHeading'))
    this.save.textContent = p('ssoAdd')
    const chosen = roles.includes(this.role.value) ? this.role.value : 'member'
    this.role.replaceChildren(...roles.map((r) => h('option', { value: r }, roleWords(p, r))))
    this.role.value = roles.includes(chosen) ? chosen : roles[0] ?? ''
  }
  /** What to send, each required field checked first: a refusal throws `InvalidRequest` with its field. */
  fields(): SsoConnectionFields & { kind: 'oidc' | 'saml'; name: string } {
    const v = (f: Field) => f.value.trim()
    if (!takenName(v(this.name))) throw invalid(this.name)
    const common = { kind: this.kind, name: v(this.name), domains: v(this.domains), defaultRole: this.role.value }
    if (this.kind === 'oidc') {
      if (!/^https?:\/\/\S+$/.test(v(this.issuer))) throw invalid(this.issuer)
      if (!v(this.clientId)) throw invalid(this.clientId)
      return { ...common, issuer: v(this.issuer), clientId: v(this.clientId), ...(this.clientSecret.value && { clientSecret: this.clientSecret.value }) }
    }
    if (!v(this.metadataXml) && !v(this.metadataUrl)) throw invalid(this.metadataXml as unknown as HTMLInputElement)
    return { ...common, ...(v(this.metadataXml) ? { metadataXml: v(this.metadataXml) } : { metadataUrl: v(this.metadataUrl) }) }
  }
  clear() {
    for (const f of [this.name, this.issuer, this.clientId, this.clientSecret, this.metadataXml, this.metadataUrl, this.domains]) f.value = ''
  }
  /** The field a refusal is about: the one found here, or the one the server's message names ("issuer", "metadataXml", ...). */
  fieldOf(e: unknown): Field | undefined {
    const { code, field, message } = e as { code?: string; field?: Field; message?: string }
    if (field) return field
    if (code !== 'InvalidRequest' && code !== 'Configuration') return undefined
    const named = /"(name|issuer|clientId|clientSecret|metadataXml|metadataUrl|domains|defaultRole|idpEntityId|ssoUrl|certificate)"/.exec(message ?? '')?.[1]
    if (!named) return this.kind === 'saml' && /metadata|certificate|saml/i.test(message ?? '') ? this.metadataXml : undefined
    if (['idpEntityId', 'ssoUrl', 'certificate'].includes(named)) return this.metadataXml
    return named === 'defaultRole' ? undefined : (this[named as 'name'] as Field)
  }
  /** The words for a refusal of one of its fields. */
  refusal(field: Field | undefined): SsoKey | undefined {
    if (!field) return undefined
    if (field === this.issuer || field === this.metadataUrl) return 'ssoUrlInvalid'
    if (field === this.metadataXml) return 'ssoMetadataInvalid'
    if (field === this.domains) return 'ssoDomainsInvalid'
    return 'ssoRequired'
  }
}
