/**
 * The domains part of `<latchkey-organization>` (verified domains): for a role with
 * `domain:manage`, the organization's domains with their state, "Add domain" (a name, the role
 * people who join get, whether they are added at sign-in), the TXT record to publish for the one
 * just added (each value with a Copy button), Verify and Remove; and for anyone, the organizations
 * their verified address lets them join, each with a Join button. Kept out of the element's file:
 * the element hands it what it needs (`DomainsHost`) and shows what `show` gives.
 */
import type { AuthClient, JoinableOrganization, OrganizationDetails, OrganizationDomain } from '../client/index.js'
import { h, isolate, keep } from './dom.js'
import { rankOf, roleWords, tellOrganizationsChanged } from './organization-roles.js'
import { need } from './plugins.js'
import type { ProfileKey } from './profile-words.js'

/** What the element lends its domains part. */
export interface DomainsHost {
  element: HTMLElement
  client: AuthClient
  p(key: ProfileKey, values?: Record<string, unknown>): string
  heading(key: ProfileKey): HTMLElement
  /**
   * The element's act: the button disabled while it runs, its error shown, "confirm it's you" where
   * needed. `field`: the input a refusal is about; the error shows under it, which names it.
   */
  act(button: HTMLButtonElement, run: () => Promise<unknown>, why?: string, field?: HTMLInputElement): Promise<boolean>
  render(): void
  /** Says what went through in the element's status line. */
  said(key: ProfileKey, values?: Record<string, unknown>): void
}

const orgs = (client: AuthClient) => need(client, 'organizations', 'latchkey-organization')

export class OrganizationDomains {
  private domains: OrganizationDomain[] = []
  private joinable: JoinableOrganization[] = []
  /** The organization (and the sign-in) the lists were read for. */
  private readFor?: string
  private joinableFor?: string
  /** The record of the domain just added, shown until it is verified or removed. */
  private record?: { id: string; domain: string; name: string; value: string }
  private list = h('ul', { part: 'list', class: 'domains', role: 'list' })
  private nameInput = h('input', { type: 'text', name: 'domain', autocomplete: 'off', required: true, part: 'input domain-input', dir: 'ltr', id: 'domain-name', spellcheck: false })
  private roleInput = h('select', { name: 'domainRole', part: 'input domain-role-input', id: 'domain-role' })
  private autoInput = h('input', { type: 'checkbox', name: 'autoJoin', part: 'checkbox auto-join', id: 'domain-auto' })
  private addButton = h('button', { type: 'submit', part: 'button add-domain' })
  private form: HTMLFormElement = h('form', { part: 'form domain-form', novalidate: true, onsubmit: (e: Event) => (e.preventDefault(), void this.add()) },
    h('label', { part: 'label', for: 'domain-name' }, h('span'), this.nameInput),
    h('label', { part: 'label', for: 'domain-role' }, h('span'), this.roleInput),
    h('label', { part: 'label checkbox-label', for: 'domain-auto', class: 'row' }, this.autoInput, h('span')),
    h('div', { class: 'row' }, this.addButton),
  )

  constructor(private host: DomainsHost) {}

  /** The part's nodes for `d` (none: the join offer alone); `manage` where the role holds `domain:manage`. */
  show(d: OrganizationDetails | undefined, manage: boolean): Node[] {
    const user = this.host.client.session?.user
    const signIn = `${user?.id ?? ''} ${this.host.client.session?.signedInAt ?? ''}`
    if (this.joinableFor !== signIn) {
      this.joinableFor = signIn
      void this.readJoinable()
    }
    const nodes: Node[] = [...this.offer()]
    if (!d || !manage) return nodes
    const key = `${d.id} ${signIn}`
    if (this.readFor !== key) {
      this.readFor = key
      this.domains = []
      this.record = undefined
      void this.readDomains(d.id)
    }
    keep(this.list, this.domains.map((x) => this.row(d, x)))
    const [name, role, auto] = this.form.querySelectorAll('label > span')
    name!.textContent = this.host.p('domainName')
    role!.textContent = this.host.p('domainRole')
    auto!.textContent = this.host.p('domainAutoJoin')
    this.addButton.textContent = this.host.p('addDomain')
    this.form.setAttribute('aria-label', this.host.p('domainsHeading'))
    const roles = d.roles.map((r) => r.name).filter((r) => rankOf(r) <= Math.min(2, rankOf(d.role)))
    const chosen = roles.includes(this.roleInput.value) ? this.roleInput.value : 'member'
    this.roleInput.replaceChildren(...roles.map((r) => h('option', { value: r }, roleWords(this.host.p, r))))
    this.roleInput.value = chosen
    nodes.push(this.host.heading('domainsHeading'), h('p', { part: 'message domains-about', class: 'muted' }, this.host.p('domainsAbout')))
    if (this.domains.length) nodes.push(this.list)
    if (this.record) nodes.push(this.recordPanel(this.record))
    nodes.push(this.form)
    return nodes
  }

  private async readDomains(id: string) {
    try {
      this.domains = await orgs(this.host.client).domains(id)
    } catch {
      this.domains = []
    }
    this.host.render()
  }

  private async readJoinable() {
    if (!this.host.client.session?.user) return
    try {
      this.joinable = await orgs(this.host.client).joinable()
    } catch {
      this.joinable = []
    }
    this.host.render()
  }

  private offer(): Node[] {
    if (!this.joinable.length) return []
    return [h('ul', { part: 'list joinable', role: 'list' }, ...this.joinable.map((o) => {
      const join: HTMLButtonElement = h('button', {
        type: 'button', part: 'button join', 'aria-describedby': `join-${o.id}`,
        onclick: () => this.host.act(join, async () => {
          await orgs(this.host.client).join(o.id)
          this.joinable = this.joinable.filter((x) => x.id !== o.id)
          this.host.said('joined', { name: isolate(o.name) })
          tellOrganizationsChanged(this.host.element)
        }),
      }, this.host.p('joinOrganization'))
      return h('li', { part: 'joinable-organization' },
        h('span', { class: 'what', id: `join-${o.id}` }, this.host.p('joinOffer', { name: isolate(o.name), role: roleWords(this.host.p, o.role), domain: isolate(o.domain) })),
        join)
    }))]
  }

  private row(d: OrganizationDetails, x: OrganizationDomain): HTMLElement {
    const state = x.verified ? this.host.p('domainVerified') : this.host.p('domainPending')
    const details = [state, this.host.p('joinsAs', { role: roleWords(this.host.p, x.role) }), ...(x.autoJoin ? [this.host.p('autoJoinOn')] : [])].join(' · ')
    const parts: Node[] = [h('span', { class: 'what' }, h('bdi', { part: 'name domain', dir: 'ltr' }, x.domain), h('span', { part: 'detail' }, details))]
    if (!x.verified) {
      const verify: HTMLButtonElement = h('button', {
        type: 'button', part: 'button verify-domain', 'aria-label': this.host.p('verifyName', { domain: x.domain }),
        onclick: () => this.host.act(verify, async () => {
          const done = await orgs(this.host.client).verifyDomain(d.id, x.id)
          this.domains = this.domains.map((y) => (y.id === x.id ? done : y))
          if (this.record?.id === x.id) this.record = undefined
          this.host.said('domainVerifiedNow', { domain: isolate(x.domain) })
        }, this.host.p('whyVerifyDomain', { domain: isolate(x.domain) })),
      }, this.host.p('verifyDomain'))
      parts.push(verify)
    }
    const remove: HTMLButtonElement = h('button', {
      type: 'button', part: 'button remove-domain', 'aria-label': this.host.p('removeDomainName', { domain: x.domain }),
      onclick: () => this.host.act(remove, async () => {
        await orgs(this.host.client).removeDomain(d.id, x.id)
        this.domains = this.domains.filter((y) => y.id !== x.id)
        if (this.record?.id === x.id) this.record = undefined
        this.host.said('domainRemoved', { domain: isolate(x.domain) })
      }),
    }, this.host.p('remove'))
    parts.push(remove)
    const li = h('li', { part: 'domain', 'data-domain': x.domain })
    keep(li, parts)
    return li
  }

  private recordPanel(record: NonNullable<OrganizationDomains['record']>): HTMLElement {
    const said = h('span', { part: 'message', role: 'status' })
    const value = (label: ProfileKey, text: string, id: string) => {
      const copy: HTMLButtonElement = h('button', {
        type: 'button', part: 'button copy', 'aria-describedby': id,
        onclick: () => navigator.clipboard.writeText(text).then(() => (said.textContent = this.host.p('copied')), () => (said.textContent = this.host.p('copyFailed'))),
      }, this.host.p('copy'))
      return h('div', { class: 'row' }, h('span', { part: 'label' }, this.host.p(label)), h('code', { part: 'record-value', id, dir: 'ltr', translate: 'no' }, text), copy)
    }
    return h('div', { class: 'stack', part: 'domain-record', role: 'group', 'aria-labelledby': 'record-intro' },
      h('p', { part: 'message', id: 'record-intro' }, this.host.p('domainRecordIntro', { domain: isolate(record.domain) })),
      value('recordName', record.name, 'record-name'),
      h('div', { class: 'row' }, h('span', { part: 'label' }, this.host.p('recordType')), h('code', { part: 'record-type', dir: 'ltr' }, 'TXT')),
      value('recordValue', record.value, 'record-value'),
      said,
    )
  }

  private async add() {
    const id = this.readFor?.split(' ')[0]
    if (!id) return
    const domain = this.nameInput.value.trim()
    const ok = await this.host.act(this.addButton, async () => {
      if (!domain) throw Object.assign(new Error('A domain is needed'), { code: 'DomainInvalid' })
      const added = await orgs(this.host.client).addDomain(id, { domain, role: this.roleInput.value, autoJoin: this.autoInput.checked })
      this.domains = [...this.domains.filter((y) => y.id !== added.id), { ...added, record: undefined }].sort((a, b) => (a.domain < b.domain ? -1 : 1))
      this.record = added.record && { id: added.id, domain: added.domain, ...added.record }
      this.host.said('domainAdded', { domain: isolate(added.domain) })
    }, undefined, this.nameInput)
    if (ok) {
      this.nameInput.value = ''
      this.autoInput.checked = false
      this.host.render()
    }
  }
}
