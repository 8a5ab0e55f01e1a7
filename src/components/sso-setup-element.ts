import type { AuthClient, OrganizationDetails, SsoConnection } from '../client/index.js'
import { h, isolate, keep } from './dom.js'
import { rankOf } from './organization-roles.js'
import { maybe, need } from './plugins.js'
import { settingsStyles } from './profile-styles.js'
import { ConnectionForm } from './sso-connection-form.js'
import { ScimTokens } from './sso-scim-tokens.js'
import { ShownOrganization, ssoTestKey as testKey } from './shown-organization.js'
import { saySso, ssoWordsFor, type SsoKey } from './sso-words.js'

const styles = `${settingsStyles}
fieldset{border:0;margin:0;padding:0;display:grid;gap:.3rem;min-width:0}
legend{padding:0}
textarea{font:inherit;box-sizing:border-box;width:100%;min-width:0;padding:.45em .75em;border:1px solid var(--lk-border);border-radius:var(--lk-radius);background:transparent;color:inherit;font-family:ui-monospace,monospace}
textarea:focus-visible,input[type=radio]:focus-visible{outline:2px solid var(--lk-focus);outline-offset:2px}
input[type=radio]{width:auto;min-height:0;accent-color:var(--lk-primary)}
:is(.connections,.tokens){list-style:none;margin:0;padding:0;display:grid}
:is(.connections,.tokens)>li{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem .75rem;padding-block:.75rem;border-block-start:1px solid var(--lk-line)}
:is(.connections,.tokens) .what{flex:1 1 12rem;min-width:0;display:grid;gap:.15rem}
:is(.connections,.tokens) :is(.ask,.values,[role=status]){flex:1 1 100%}
code{font-family:ui-monospace,monospace;overflow-wrap:anywhere;word-break:break-all;min-width:0;flex:1 1 12rem}
[part~=warning]{font-weight:600}
`

/**
 * `<latchkey-sso-setup>`: an organization's enterprise sign-in, for its admins (the sso and scim
 * plugins; the ssoConnections and scimTokens client plugins). For a role with `sso:manage`: its
 * connections, each with the values to give the IdP (redirect URI; entity id, ACS URL, metadata
 * URL) and Copy buttons, "Test the connection" (a real sign-in through it: the tab goes to the IdP
 * and comes back, and the result shows here) and Delete, asked again; "Add a connection" (OIDC:
 * issuer, client id, secret; SAML: metadata pasted or its URL; domains; the role people get). For
 * a role with `scim:manage`: SCIM tokens (sso-scim-tokens.ts). The organization is `organization-id`
 * (default: the session's active one). Empty for a role with neither, and when signed out.
 */
export function ssoSetupElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeySsoSetup extends ShownOrganization {
    protected readonly tag = 'latchkey-sso-setup'
    protected override ownStyles = styles
    protected override wordsFor(tag: string) {
      return ssoWordsFor(this.client, tag)
    }
    /** `key`'s message, of the settings elements' catalogue or this element's own, in its language. */
    protected override p = (key: SsoKey, values?: Record<string, unknown>) => saySso(this.words, key, values)
    /** undefined: not read yet; null: the server has no sso plugin. */
    private connections?: SsoConnection[] | null
    private connectionsFor?: string
    private listed = h('ul', { part: 'list', class: 'connections', role: 'list' })
    private deleting?: string
    /** Each connection's test result, by id. */
    private results = new Map<string, { ok: boolean; text: string }>()
    private connectionForm = new ConnectionForm(() => void this.add())
    private done?: { key: SsoKey; values?: Record<string, unknown> }
    private scim = new ScimTokens({
      client, lang: () => this.words.lang, p: this.p, heading: (k) => this.heading(k), act: (b, run, why) => this.act(b, run, why), render: () => this.render(),
      said: (key, values) => (this.done = { key, values }), copyable: (l, t, id) => this.copyable(l, t, id),
      failed: (form, field) => ((this.failedForm = form), (this.failedField = field)),
    }, () => this.details?.id)
    private seen?: string
    constructor() {
      super(client)
      this.said.tabIndex = -1
    }
    private get sso() {
      return need(this.client, 'ssoConnections', 'latchkey-sso-setup')
    }
    protected override forget() {
      this.deleting = this.done = undefined
      this.results.clear()
    }
    private may(permission: string): boolean {
      const d = this.details
      // The owner may do whatever any role may (the server lists every contributed permission for it too).
      return !!d && (d.role === 'owner' || !!d.roles.find((r) => r.name === d.role)?.permissions.includes(permission))
    }
    protected override say(e: unknown): string {
      const { code, message } = e as { code?: string; message?: string }
      if (this.failedForm === this.connectionForm.form) {
        const refused = this.connectionForm.refusal(this.failedField)
        if (refused) return this.p(refused)
      }
      if (this.failedForm === this.scim.form && code === 'InvalidRequest') return this.p('ssoRequired')
      return code === 'Configuration' && message ? `${this.p('actionFailed')} ${message}` : super.say(e)
    }
    protected override fail(e: unknown) {
      if (this.failedForm === this.connectionForm.form) this.failedField = this.connectionForm.fieldOf(e) as HTMLInputElement | undefined
      super.fail(e)
    }
    private heading(key: SsoKey) {
      const level = Math.min(6, Math.max(1, Number(this.getAttribute('heading-level')) || 3))
      return h(`h${level}` as 'h3', { part: 'subheading' }, this.p(key))
    }
    private copyable(label: SsoKey, text: string, id: string): HTMLElement {
      const said = h('span', { part: 'message', role: 'status' })
      const copy: HTMLButtonElement = h('button', {
        type: 'button', part: 'button copy', 'aria-describedby': `${id}-label`,
        onclick: () => navigator.clipboard.writeText(text).then(() => (said.textContent = this.p('copied')), () => (said.textContent = this.p('copyFailed'))),
      }, this.p('copy'))
      return h('div', { class: 'row', part: 'value-row' }, h('span', { part: 'label', id: `${id}-label` }, this.p(label)), h('code', { part: 'value-text', id, dir: 'ltr', translate: 'no' }, text), copy, said)
    }
    private async readConnections(id: string) {
      try {
        this.connections = await this.sso.list(id)
      } catch {
        this.connections = null
      }
      this.render()
    }
    /** Back from a test sign-in: its result, once, on the connection it tested. */
    private testBack() {
      const held = sessionStorage.getItem(testKey)
      if (!held || !this.client.session?.user) return
      sessionStorage.removeItem(testKey)
      const { id, name, error } = { ...(JSON.parse(held) as { id: string; name: string }), error: new URLSearchParams(location.search).get('error') }
      const email = this.client.session.user.email ?? this.client.session.user.name ?? ''
      this.results.set(id, error ? { ok: false, text: this.p('ssoTestFailed', { message: error }) } : { ok: true, text: this.p('ssoTestWorked', { name: isolate(name), email: isolate(email) }) })
    }
    private async test(c: SsoConnection, button: HTMLButtonElement) {
      const orgId = this.details!.id
      await this.act(button, async () => {
        const reached = await this.sso.test(orgId, c.id)
        if (!reached.ok) return void this.results.set(c.id, { ok: false, text: this.p('ssoTestFailed', { message: reached.message }) })
        const provider = Object.values(await this.client.getProviders()).find((p) => (p.type as string) === 'sso')
        if (!provider) return void this.results.set(c.id, { ok: false, text: this.p('ssoTestFailed', { message: 'sso' }) })
        sessionStorage.setItem(testKey, JSON.stringify({ id: c.id, name: c.name, organizationId: orgId }))
        // The round trip: to the IdP and back to this page, signed in through the connection.
        await this.client.signIn(provider.id, { connection: c.id, callbackUrl: location.href })
      })
    }
    private row(c: SsoConnection): HTMLElement {
      const li = h('li', { part: 'connection', 'data-connection': c.id })
      const sp = c.serviceProvider
      const values = ([['ssoRedirectUri', sp.redirectUri], ['ssoEntityId', sp.entityId], ['ssoAcsUrl', sp.acsUrl], ['ssoSpMetadataUrl', sp.metadataUrl]] as const)
        .filter(([, v]) => v).map(([k, v]) => this.copyable(k, v!, `${k}-${c.id}`))
      const what = h('span', { class: 'what' }, h('bdi', { part: 'name' }, c.name),
        h('span', { part: 'detail' }, [c.kind === 'oidc' ? 'OIDC' : 'SAML', ...c.domains].join(' · ')))
      const parts: Node[] = [what]
      const about = h('span', { id: `test-about-${c.id}`, hidden: true }, this.p('ssoTestAbout'))
      const testButton: HTMLButtonElement = h('button', { type: 'button', part: 'button test-connection', 'aria-label': this.p('ssoTestName', { name: c.name }), 'aria-describedby': about.id, onclick: () => this.test(c, testButton) }, this.p('ssoTest'))
      if (this.deleting === c.id) parts.push(this.deleteAsk(c))
      else parts.push(testButton, h('button', { type: 'button', part: 'button delete-connection', 'aria-label': this.p('ssoDeleteName', { name: c.name }), onclick: () => this.askDelete(c.id) }, this.p('ssoDelete')), about)
      const result = this.results.get(c.id)
      parts.push(h('p', { part: `message test-result ${result?.ok ? 'ok' : 'failed'}`, role: 'status', class: result && !result.ok ? 'error' : '' }, result?.text ?? ''))
      parts.push(h('div', { class: 'values stack', part: 'values', role: 'group', 'aria-label': this.p('ssoGiveIdp') }, h('p', { part: 'message' }, this.p('ssoGiveIdp')), ...values))
      keep(li, parts)
      return li
    }
    private askDelete(id: string | undefined) {
      const was = this.deleting
      this.deleting = id
      this.error.hidden = true
      this.render()
      const li = this.listed.querySelector(`[data-connection="${id ?? was}"]`)
      li?.querySelector<HTMLButtonElement>(id ? '[part~=confirm-delete]' : '[part~=delete-connection]')?.focus()
    }
    private deleteAsk(c: SsoConnection): HTMLElement {
      const orgId = this.details!.id
      const question = h('p', { part: 'message', id: `delete-ask-${c.id}` }, this.p('ssoDeleteAsk', { name: isolate(c.name) }))
      const yes: HTMLButtonElement = h('button', {
        type: 'button', part: 'button danger confirm-delete', 'aria-describedby': question.id,
        onclick: async () => {
          const ok = await this.act(yes, async () => {
            await this.sso.remove(orgId, c.id)
            this.connections = (this.connections ?? []).filter((x) => x.id !== c.id)
            this.deleting = undefined
            this.done = { key: 'ssoDeleted', values: { name: isolate(c.name) } }
          }, this.p('whyChangeSso'))
          if (ok) this.said.focus()
        },
      }, this.p('ssoDelete'))
      return h('div', { class: 'ask stack', part: 'delete-ask', role: 'group', 'aria-label': this.p('ssoDeleteName', { name: c.name }), onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && this.askDelete(undefined) },
        question, h('div', { class: 'row' }, yes, h('button', { type: 'button', part: 'button cancel', onclick: () => this.askDelete(undefined) }, this.p('cancel'))))
    }
    private async add() {
      const orgId = this.details!.id
      const form = this.connectionForm
      this.failedForm = form.form
      this.failedField = undefined
      this.done = undefined
      let made: SsoConnection | undefined
      const ok = await this.act(form.save, async () => {
        made = await this.sso.create(orgId, form.fields())
        this.connections = [...(this.connections ?? []), made]
        this.done = { key: 'ssoAdded', values: { name: isolate(made.name) } }
      }, this.p('whyChangeSso'))
      if (!ok || !made) return
      this.failedForm = this.failedField = undefined
      form.clear()
      this.render()
      // The values to give the IdP are what comes next: the focus goes to the first one's Copy.
      this.listed.querySelector<HTMLButtonElement>(`[data-connection="${made.id}"] [part~=copy]`)?.focus()
    }
    protected override render() {
      super.render()
      for (const area of this.root.querySelectorAll('textarea[aria-describedby]')) if (!this.failedForm || this.error.hidden || this.failedField !== (area as unknown)) area.removeAttribute('aria-describedby')
    }
    protected show(): Node[] {
      const seen = `${this.shownId ?? ''} ${this.client.session?.organization?.role ?? ''}`
      if (this.seen !== undefined && this.seen !== seen) this.readAgain()
      this.seen = seen
      const d = this.details
      const sso = !!d && this.may('sso:manage') && !!maybe(this.client, 'ssoConnections')
      const scim = !!d && this.may('scim:manage') && !!maybe(this.client, 'scimTokens')
      this.hidden = !sso && !scim
      if (!d || this.hidden) return []
      const key = `${d.id} ${this.client.session?.user?.id ?? ''} ${this.client.session?.signedInAt ?? ''}`
      const nodes: Node[] = []
      if (sso) {
        if (this.connectionsFor !== key) {
          this.connectionsFor = key
          this.connections = undefined
          this.testBack()
          void this.readConnections(d.id)
        }
        if (this.connections !== null) {
          const list = this.connections ?? []
          keep(this.listed, list.map((c) => this.row(c)))
          this.listed.setAttribute('aria-label', this.p('ssoHeading'))
          const roles = d.roles.map((r) => r.name).filter((r) => r !== 'owner' && rankOf(r) <= rankOf(d.role))
          this.connectionForm.words(this.p, roles)
          nodes.push(this.heading('ssoHeading'), h('p', { part: 'message', class: 'muted' }, this.p('ssoAbout')),
            list.length ? this.listed : h('p', { part: 'empty', class: 'muted' }, this.p('ssoNoConnections')),
            this.heading('ssoAddHeading'), this.connectionForm.form)
        }
      }
      if (scim) nodes.push(...this.scim.show(key))
      this.said.textContent = this.done ? this.p(this.done.key, this.done.values) : ''
      nodes.push(this.said)
      return nodes
    }
  }
}
