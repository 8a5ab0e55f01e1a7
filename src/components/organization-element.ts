import type { AuthClient, OrganizationDetails, OrganizationMember } from '../client/index.js'
import { when } from './dates.js'
import { h, isolate, keep } from './dom.js'
import { DetailsForm } from './organization-details.js'
import { invalid, rankOf, roleWords, tellOrganizationsChanged } from './organization-roles.js'
import { define } from './define.js'
import { maybe, need } from './plugins.js'
import type { ProfileKey } from './profile-words.js'
import { OrganizationDomains } from './organization-domains.js'
import { ShownOrganization } from './shown-organization.js'

/**
 * `<latchkey-organization>`: the session's active organization (or the one `organization-id`
 * names): "Edit details" (its name, slug and logo URL) for a role that may update it; its members
 * with their roles, a role changed where the user's own role allows it (never above their own) and
 * a member removed (asked again in their row); "Invite someone" (an address and a role) and the pending
 * invitations, each revocable, for a role that may invite; Leave, and Delete for its owner (each
 * asked again in place; deleting, and making or unmaking an owner, need a recent sign-in, asked
 * for in place: fresh.ts); for a role with `sso:manage` or `scim:manage`, a client with
 * `ssoConnections()` or `scimTokens()` and a server with the sso plugin, enterprise sign-in (`<latchkey-sso-setup>`, its code loaded
 * the first time it shows). Sub-headings at `heading-level` (default 3). Needs the organizations
 * plugin. Empty when signed out; a line that says so where no organization is active.
 */
export function organizationElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeyOrganization extends ShownOrganization {
    protected readonly tag = 'latchkey-organization'
    /** Each member's role field, by user id: kept, so the one changed keeps the focus. */
    private roleFields = new Map<string, HTMLSelectElement>()
    /** The members' list and each member's row, kept: a field moved to another parent would lose the focus. */
    private members = h('ul', { part: 'list', class: 'members', role: 'list' })
    private memberRows = new Map<string, HTMLLIElement>()
    private actions = h('div', { class: 'row', part: 'actions' })
    private emailInput = h('input', { type: 'email', name: 'email', autocomplete: 'off', required: true, part: 'input email-input', dir: 'ltr', id: 'invite-email' })
    private roleInput = h('select', { name: 'role', part: 'input role-input', id: 'invite-role' })
    private inviteButton = h('button', { type: 'submit', part: 'button primary invite' })
    private inviteForm: HTMLFormElement = h('form', { part: 'form invite-form', novalidate: true, onsubmit: (e: Event) => (e.preventDefault(), void this.invite()) },
      h('label', { part: 'label', for: 'invite-email' }, h('span'), this.emailInput),
      h('label', { part: 'label', for: 'invite-role' }, h('span'), this.roleInput),
      h('div', { class: 'row' }, this.inviteButton),
    )
    private leaveButton: HTMLButtonElement = h('button', { type: 'button', part: 'button leave', onclick: () => this.ask('leave') })
    private deleteButton: HTMLButtonElement = h('button', { type: 'button', part: 'button danger delete', onclick: () => this.ask('delete') })
    /** Which of leave and delete is asked again, in place. */
    private asking?: 'leave' | 'delete'
    /** "Edit details": its button, and its form while open (kept: its fields keep what is typed). */
    private editButton: HTMLButtonElement = h('button', { type: 'button', part: 'button edit', onclick: () => this.edit(true) })
    private detailsForm = new DetailsForm(() => void this.saveDetails(), () => this.edit(false))
    private editing = false
    /** The member whose removal is asked again in their row, and that question (kept: its buttons keep the focus). */
    private removing?: { userId: string; ask: HTMLElement }
    /** The organization what is open acts on: another one shown closes it. */
    private openOn?: string
    /** Its panel, kept from one render to the next (its buttons keep the focus). */
    private panel?: HTMLElement
    /** What went through, in the status line (said again in a new language). */
    private done?: { key: ProfileKey; values?: Record<string, unknown> }
    /** The organization (and role) shown: another one read anew. */
    private seen?: string
    /** `<latchkey-sso-setup>`, for a role that may manage enterprise sign-in. */
    private sso?: HTMLElement
    /** Verified domains, and the organizations the user may join (organization-domains.ts). */
    private domains = new OrganizationDomains({ element: this, client, p: this.p, heading: (k) => this.heading(k), act: (b, run, why, field) => {
      this.failedForm = field?.form ?? undefined
      this.failedField = field
      return this.act(b, run, why)
    }, render: () => this.render(), said: (key, values) => (this.done = { key, values }) })
    constructor() {
      super(client)
      this.said.tabIndex = -1
    }
    /** Closes what is open: a question, the details form, a removal asked. */
    private closeAll() {
      this.asking = this.panel = this.removing = undefined
      this.editing = false
    }
    protected override forget() {
      this.closeAll()
      this.done = undefined
    }
    /** Read anew: what is open stays on the same organization, but for a removal asked of someone gone. */
    protected override reread() {
      if (this.details?.id !== this.openOn) this.closeAll()
      else if (this.removing && !this.details?.members.some((m) => m.userId === this.removing!.userId)) this.removing = undefined
      this.openOn = this.details?.id
    }
    /** The organization as the server has it now, after an action. */
    private async again(): Promise<OrganizationDetails[]> {
      return this.read()
    }
    protected override say(e: unknown): string {
      const { code } = e as { code?: string }
      if (code === 'InvalidRequest' && this.failedForm === this.inviteForm) return this.p('emailInvalid')
      const refused = this.failedForm === this.detailsForm.form && this.detailsForm.refusal(this.failedField, code)
      return refused ? this.p(refused) : super.say(e)
    }
    protected override fail(e: unknown) {
      if (this.failedForm === this.detailsForm.form) this.failedField = this.detailsForm.fieldOf(e)
      super.fail(e)
    }
    private may(permission: string): boolean {
      const d = this.details
      return !!d && !!d.roles.find((r) => r.name === d.role)?.permissions.includes(permission)
    }
    /** The roles the user may give: none above their own. */
    private grantable(): string[] {
      const d = this.details!
      return d.roles.map((r) => r.name).filter((r) => rankOf(r) <= rankOf(d.role))
    }
    private options(select: HTMLSelectElement, roles: string[], value: string) {
      select.replaceChildren(...roles.map((r) => h('option', { value: r }, roleWords(this.p, r))))
      select.value = value
    }
    private nameOf = (m: OrganizationMember) => m.name || m.email || m.userId
    /** Asks again, in place, before leaving or deleting; undefined closes it, the focus back on what opened it. */
    private ask(what: 'leave' | 'delete' | undefined) {
      const was = this.asking
      this.asking = what
      this.panel = undefined
      this.failedForm = undefined
      this.error.hidden = true
      this.render()
      ;(what ? this.root.querySelector<HTMLButtonElement>('[part~=confirm-action]') : was === 'delete' ? this.deleteButton : this.leaveButton)?.focus()
    }
    /** Leave or delete went through: the status line says so and takes the focus (what was pressed is gone). */
    private gone(key: ProfileKey, name: string) {
      this.done = { key, values: { name: isolate(name) } }
      this.asking = this.panel = undefined
      tellOrganizationsChanged(this)
      setTimeout(() => this.said.focus())
      return [] as OrganizationDetails[]
    }
    /** Opens "Edit details", its values filled and the name focused; or closes it, the focus back on Edit details. */
    private edit(on: boolean) {
      this.editing = on
      this.failedForm = this.failedField = undefined
      this.error.hidden = true
      if (on && this.details) {
        this.detailsForm.fill(this.details)
        this.done = undefined
        this.openOn = this.details.id
      }
      this.render()
      ;(on ? this.detailsForm.name : this.editButton).focus()
    }
    private async saveDetails() {
      const d = this.details!
      const form = this.detailsForm
      this.failedForm = form.form
      this.done = undefined
      const ok = await this.act(form.save, async () => {
        const change = form.changes(d)
        if (!Object.keys(change).length) return
        const saved = await this.orgs.update(d.id, change)
        this.done = { key: 'organizationUpdated', values: { name: isolate(saved.name) } }
        tellOrganizationsChanged(this)
        return this.again()
      })
      if (!ok) return
      this.editing = false
      this.failedForm = this.failedField = undefined
      this.render()
      this.editButton.focus()
    }
    /** Asks again, in the member's row, before removing them; undefined closes it, the focus back on their Remove. */
    private askRemove(m: OrganizationMember | undefined) {
      const was = this.removing?.userId
      this.removing = m && { userId: m.userId, ask: this.removeAsk(m) }
      this.failedForm = undefined
      this.error.hidden = true
      this.render()
      const row = this.memberRows.get(m?.userId ?? was ?? '')
      row?.querySelector<HTMLButtonElement>(m ? '[part~=confirm-remove]' : '[part~=remove-member]')?.focus()
    }
    private removeAsk(m: OrganizationMember): HTMLElement {
      const d = this.details!
      const name = this.nameOf(m)
      this.openOn = d.id
      const question = h('p', { part: 'message', id: `remove-ask-${m.userId}` }, this.p('removeMemberAsk', { name: isolate(name), organization: isolate(d.name) }))
      const yes: HTMLButtonElement = h('button', {
        type: 'button', part: 'button danger confirm-remove', 'aria-describedby': question.id,
        onclick: () => this.act(yes, async () => {
          await this.orgs.removeMember(d.id, m.userId)
          this.removing = undefined
          this.done = { key: 'memberRemoved', values: { name: isolate(name) } }
          return this.again()
        }, this.p('whyRemoveMember', { name: isolate(name) })),
      }, this.p('removeMember'))
      return h('div', { class: 'ask stack', part: 'remove-ask', role: 'group', 'aria-label': this.t('removeName', { name }), onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && this.askRemove(undefined) },
        question,
        h('div', { class: 'row' }, yes, h('button', { type: 'button', part: 'button cancel', onclick: () => this.askRemove(undefined) }, this.t('cancel'))),
      )
    }
    private async setRole(m: OrganizationMember, select: HTMLSelectElement) {
      const d = this.details!
      const role = select.value
      this.failedForm = undefined
      this.done = undefined
      const owner = role === 'owner' || m.role === 'owner'
      await this.act(select as unknown as HTMLButtonElement, async () => {
        await this.orgs.setRole(d.id, m.userId, role)
        this.done = { key: 'roleChanged', values: { name: isolate(this.nameOf(m)), role: roleWords(this.p, role) } }
        return this.again()
      }, owner ? this.p('whyChangeOwner', { name: isolate(d.name) }) : undefined)
      // Refused: the field shows the role the member has.
      select.value = this.details?.members.find((x) => x.userId === m.userId)?.role ?? select.value
    }
    private async invite() {
      const d = this.details!
      this.failedForm = this.inviteForm
      this.done = undefined
      const email = this.emailInput.value.trim()
      const role = this.roleInput.value
      const ok = await this.act(this.inviteButton, async () => {
        if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw invalid()
        const sent = await this.orgs.invite(d.id, { email, role })
        this.done = { key: 'invitationSent', values: { email: sent.email } }
        return this.again()
      }, role === 'owner' ? this.p('whyChangeOwner', { name: isolate(d.name) }) : undefined)
      if (ok) {
        this.failedForm = undefined
        this.emailInput.value = ''
        this.render()
      }
    }
    /** Whether the server has enterprise sign-in (the sso plugin); false until it is known. */
    private enterpriseOn = false
    private enterpriseAsked = false
    /** Asks once: a server without the sso plugin is never asked for connections or tokens (a 404 in the console). */
    private enterpriseServer(): boolean {
      if (!this.enterpriseAsked) {
        this.enterpriseAsked = true
        void this.client
          .getPlugins()
          // A server that does not list its plugins: whether it has a provider of the sso plugin's type.
          .then(async (plugins) => plugins?.includes('sso') ?? Object.values(await this.client.getProviders()).some((p) => (p.type as string) === 'sso'))
          .catch(() => false)
          .then((on) => {
            this.enterpriseOn = on
            if (on) this.render()
          })
      }
      return this.enterpriseOn
    }
    /** Enterprise sign-in (`<latchkey-sso-setup>`), loaded the first time an admin sees it: inside this shadow root, the lazy definition does not look. */
    private enterprise(id: string): HTMLElement {
      if (!this.sso) {
        this.sso = document.createElement('latchkey-sso-setup')
        if (!customElements.get('latchkey-sso-setup')) void import('./sso-setup-element.js').then((m) => define('latchkey-sso-setup', m.ssoSetupElement(this.client)))
      }
      this.sso.setAttribute('organization-id', id)
      this.sso.setAttribute('lang', this.words.lang)
      this.sso.setAttribute('heading-level', String(Math.min(6, Math.max(1, Number(this.getAttribute('heading-level')) || 3))))
      return this.sso
    }
    private heading(key: ProfileKey) {
      const level = Math.min(6, Math.max(1, Number(this.getAttribute('heading-level')) || 3))
      return h(`h${level}` as 'h3', { part: 'subheading' }, this.p(key))
    }
    private member(m: OrganizationMember): HTMLElement {
      const d = this.details!
      const me = m.userId === this.client.session?.user?.id
      const name = this.nameOf(m)
      const mine = rankOf(d.role)
      const who = h('span', { class: 'what' },
        h('span', { part: 'name' }, me ? this.p('you', { name: isolate(name) }) : h('bdi', {}, name)),
        m.email && m.email !== name ? h('bdi', { part: 'detail email' }, m.email) : null,
      )
      let row = this.memberRows.get(m.userId)
      if (!row) this.memberRows.set(m.userId, (row = h('li', { part: 'member', 'data-user': m.userId })))
      const parts: Node[] = [who]
      if (!me && this.may('member:set-role') && rankOf(m.role) <= mine) {
        let select = this.roleFields.get(m.userId)
        if (!select) {
          const made: HTMLSelectElement = h('select', { part: 'input role', onchange: () => this.setRole(m, made) })
          this.roleFields.set(m.userId, (select = made))
        }
        select.setAttribute('aria-label', this.p('roleOf', { name }))
        this.options(select, this.grantable(), m.role)
        parts.push(select)
      } else parts.push(h('span', { part: 'detail role' }, roleWords(this.p, m.role)))
      if (!me && this.may('member:remove') && rankOf(m.role) <= mine) {
        if (this.removing?.userId === m.userId) parts.push(this.removing.ask)
        else parts.push(h('button', { type: 'button', part: 'button remove-member', 'aria-label': this.t('removeName', { name }), onclick: () => this.askRemove(m) }, this.t('remove')))
      }
      keep(row, parts)
      return row
    }
    private confirmPanel(what: 'leave' | 'delete'): HTMLElement {
      const d = this.details!
      const question = h('p', { part: 'message', id: 'ask' }, this.p(what === 'leave' ? 'leaveAsk' : 'deleteAsk', { name: isolate(d.name) }))
      const yes: HTMLButtonElement = h('button', {
        type: 'button', part: `button danger confirm-action ${what}-confirm`, 'aria-describedby': question.id,
        onclick: () => this.act(yes, what === 'leave'
          ? async () => (await this.orgs.leave(d.id), this.gone('left', d.name))
          : async () => (await this.orgs.remove(d.id), this.gone('deleted', d.name)),
        what === 'delete' ? this.p('whyDeleteOrganization', { name: isolate(d.name) }) : undefined),
      }, this.p(what === 'leave' ? 'leaveOrganization' : 'deleteOrganization'))
      return h('div', { class: 'ask stack', part: `${what}-ask`, role: 'group', 'aria-labelledby': question.id, onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && this.ask(undefined) },
        question,
        h('div', { class: 'row' }, yes, h('button', { type: 'button', part: 'button cancel', onclick: () => this.ask(undefined) }, this.t('cancel'))),
      )
    }
    protected show(): Node[] {
      const active = this.client.session?.organization
      const seen = `${this.shownId ?? ''} ${active?.role ?? ''}`
      if (this.seen !== undefined && this.seen !== seen) this.readAgain()
      this.seen = seen
      this.said.textContent = this.done ? this.p(this.done.key, this.done.values) : ''
      const d = this.details
      if (!d) return [h('p', { part: 'message none', class: 'muted' }, this.p('noOrganization')), ...this.domains.show(undefined, false), this.said]
      const live = new Set(d.members.map((m) => m.userId))
      for (const id of this.roleFields.keys()) if (!live.has(id)) this.roleFields.delete(id)
      for (const id of this.memberRows.keys()) if (!live.has(id)) this.memberRows.delete(id)
      keep(this.members, d.members.map((m) => this.member(m)))
      const nodes: Node[] = [
        h('p', { part: 'summary' }, h('bdi', { part: 'name' }, d.name), ' ', h('span', { part: 'detail' }, this.p('yourRole', { role: roleWords(this.p, d.role) }))),
      ]
      if (this.may('organization:update')) {
        this.editButton.textContent = this.p('editOrganization')
        this.editButton.hidden = this.editing
        this.detailsForm.words(this.p, this.t('cancel'))
        nodes.push(this.editButton, ...(this.editing ? [this.detailsForm.form] : []))
      }
      nodes.push(
        this.heading('membersHeading'),
        this.members,
      )
      if (this.may('member:invite')) {
        const [email, role] = this.inviteForm.querySelectorAll('label > span')
        email!.textContent = this.p('inviteEmail')
        role!.textContent = this.p('inviteRole')
        this.inviteButton.textContent = this.p('sendInvitation')
        this.inviteForm.setAttribute('aria-label', this.p('inviteHeading'))
        const chosen = this.roleInput.value || 'member'
        this.options(this.roleInput, this.grantable(), this.grantable().includes(chosen) ? chosen : 'member')
        nodes.push(this.heading('inviteHeading'), this.inviteForm)
      }
      const pending = d.invitations ?? []
      if (pending.length) {
        const { lang } = this.words
        nodes.push(this.heading('invitationsHeading'), h('ul', { part: 'list', class: 'invitations', role: 'list' }, ...pending.map((i) => {
          const role = roleWords(this.p, i.role)
          const row = h('li', { part: 'invitation', 'data-invitation': i.id },
            h('span', { class: 'what' }, h('bdi', { part: 'name email' }, i.email), h('span', { part: 'detail' }, i.expired ? this.p('invitationExpired', { role }) : this.p('invitedAs', { role, date: when(lang, i.expires) }))),
          )
          if (this.may('invitation:revoke')) {
            const revoke: HTMLButtonElement = h('button', {
              type: 'button', part: 'button revoke', 'aria-label': this.p('revokeName', { email: i.email }),
              onclick: () => this.act(revoke, async () => {
                await this.orgs.revokeInvitation(d.id, i.id)
                this.done = { key: 'invitationRevoked' }
                return this.again()
              }),
            }, this.p('revoke'))
            row.append(revoke)
          }
          return row
        })))
      }
      this.leaveButton.textContent = this.p('leaveOrganization')
      this.deleteButton.textContent = this.p('deleteOrganization')
      this.leaveButton.hidden = this.asking === 'leave'
      this.deleteButton.hidden = this.asking === 'delete'
      nodes.push(...this.domains.show(d, this.may('domain:manage')))
      const enterprise = maybe(this.client, 'ssoConnections') || maybe(this.client, 'scimTokens')
      if (enterprise && (d.role === 'owner' || this.may('sso:manage') || this.may('scim:manage')) && this.enterpriseServer()) nodes.push(this.enterprise(d.id))
      keep(this.actions, [this.leaveButton, ...(this.may('organization:delete') ? [this.deleteButton] : [])])
      nodes.push(this.actions)
      if (this.asking) nodes.push((this.panel ??= this.confirmPanel(this.asking)))
      nodes.push(this.said)
      return nodes
    }
  }
}
