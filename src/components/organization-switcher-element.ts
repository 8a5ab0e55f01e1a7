import type { AuthClient, OrganizationInfo } from '../client/index.js'
import { h, isolate, keep } from './dom.js'
import { invalid, roleWords, takenName, tellOrganizationsChanged } from './organization-roles.js'
import { need } from './plugins.js'
import { OrganizationsList } from './organizations-list.js'

/**
 * `<latchkey-organization-switcher>`: where the signed-in user works, one button each: their
 * personal account (no organization) and each of their organizations with their role, the active
 * one marked (`aria-current`). Pressing one makes it the session's active organization, in every
 * tab at once. "New organization" opens a field for its name: created, the user its owner, it
 * becomes the active one. Needs the organizations plugin. Empty when signed out.
 */
export function organizationSwitcherElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeyOrganizationSwitcher extends OrganizationsList<OrganizationInfo> {
    /** Each option's button, by organization id ('' the personal account): kept, so the one pressed keeps the focus. */
    private options = new Map<string, HTMLButtonElement>()
    private label = h('p', { part: 'label', id: 'switcher-label' })
    /** The list and its rows are kept too: a button moved to another parent would lose the focus. */
    private rows = h('ul', { part: 'list', class: 'organizations', role: 'list', 'aria-labelledby': this.label.id })
    private opener: HTMLButtonElement = h('button', { type: 'button', part: 'button new', onclick: () => this.open(true) })
    private nameInput = h('input', { name: 'name', autocomplete: 'organization', maxlength: 100, required: true, part: 'input name-input' })
    private createButton = h('button', { type: 'submit', part: 'button primary create' })
    private cancelButton = h('button', { type: 'button', part: 'button cancel', onclick: () => this.open(false) })
    private createForm: HTMLFormElement = h('form', {
      part: 'form create-form', novalidate: true,
      onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && this.open(false),
      onsubmit: (e: Event) => (e.preventDefault(), void this.create()),
    }, h('label', { part: 'label' }, h('span'), this.nameInput), h('div', { class: 'row' }, this.createButton, this.cancelButton))
    private formOpen = false
    /** The last switch or creation, said in the status line (again in a new language). */
    private done?: { name: string | null }
    /** The session's organization as last shown: a change (here, in another tab, a removal) reads the list anew. */
    private seen?: string
    constructor() {
      super(client)
    }
    private get orgs() {
      return need(this.client, 'organizations', 'latchkey-organization-switcher')
    }
    protected async read() {
      return (await this.orgs.list()).organizations
    }
    /** Another user's form and status line never stay; the same user's new sign-in keeps them, and what is typed. */
    protected override forget() {
      this.formOpen = false
      this.nameInput.value = ''
      this.done = undefined
    }
    protected override say(e: unknown): string {
      if ((e as { code?: string }).code === 'InvalidRequest' && this.failedForm === this.createForm) return this.p('organizationNameInvalid')
      return super.say(e)
    }
    private open(on: boolean) {
      this.formOpen = on
      this.nameInput.value = ''
      this.failedForm = undefined
      this.error.hidden = true
      this.render()
      ;(on ? this.nameInput : this.opener).focus()
    }
    private async switchTo(organization: OrganizationInfo | null, button: HTMLButtonElement) {
      this.failedForm = undefined
      this.done = undefined
      await this.act(button, async () => {
        await this.orgs.switch(organization?.id ?? null)
        this.done = { name: organization?.name ?? null }
      })
    }
    private async create() {
      this.failedForm = this.createForm
      this.done = undefined
      const name = this.nameInput.value.trim()
      let made: OrganizationInfo | undefined
      const ok = await this.act(this.createButton, async () => {
        if (!takenName(name)) throw invalid()
        made = await this.orgs.create({ name })
        this.done = { name: made.name }
        tellOrganizationsChanged(this)
        return (await this.orgs.list()).organizations
      })
      if (!ok) return
      this.failedForm = undefined
      this.formOpen = false
      this.nameInput.value = ''
      this.render()
      this.options.get(made!.id)?.focus()
    }
    private option(organization: OrganizationInfo | null, active: boolean): HTMLButtonElement {
      const key = organization?.id ?? ''
      let button = this.options.get(key)
      if (!button) {
        const made: HTMLButtonElement = h('button', { type: 'button', 'data-organization': key, onclick: () => this.switchTo(organization, made) })
        this.options.set(key, (button = made))
        h('li', {}, made)
      }
      button.setAttribute('part', `button option${active ? ' current' : ''}`)
      if (active) button.setAttribute('aria-current', 'true')
      else button.removeAttribute('aria-current')
      const name = organization ? h('bdi', { part: 'name' }, organization.name) : h('span', { part: 'name' }, this.p('personal'))
      const logo = organization?.logo ? h('img', { part: 'logo', src: organization.logo, alt: '', onerror: (e: Event) => (e.target as HTMLElement).remove() }) : null
      const role = organization ? h('span', { part: 'detail role' }, roleWords(this.p, organization.role)) : null
      const mark = active ? h('span', { part: 'detail current', class: 'current' }, h('span', { 'aria-hidden': 'true' }, '✓ '), this.p('current')) : null
      button.replaceChildren(...[logo, h('span', { class: 'what' }, name, role), mark].filter((n): n is HTMLElement => !!n))
      return button
    }
    protected show(): Node[] {
      const active = this.client.session?.organization ?? null
      const seen = active ? `${active.id} ${active.role}` : ''
      // Another organization (or role) than the one shown: switched in another tab, removed, or just made.
      if (this.seen !== undefined && this.seen !== seen) this.readAgain()
      this.seen = seen
      const listed = this.list
      const live = new Set(['', ...listed.map((o) => o.id)])
      for (const key of this.options.keys()) if (!live.has(key)) this.options.delete(key)
      this.label.textContent = this.p('switcherLabel')
      keep(this.rows, [null, ...listed].map((o) => this.option(o, (o?.id ?? null) === (active?.id ?? null)).parentElement!))
      this.opener.textContent = this.p('newOrganization')
      this.opener.hidden = this.formOpen
      this.createForm.setAttribute('aria-label', this.p('newOrganization'))
      this.createForm.querySelector('span')!.textContent = this.p('organizationName')
      this.createButton.textContent = this.p('create')
      this.cancelButton.textContent = this.t('cancel')
      this.said.textContent = !this.done ? '' : this.done.name === null ? this.p('switchedPersonal') : this.p('switched', { name: isolate(this.done.name) })
      return [
        this.label,
        this.rows,
        this.opener,
        ...(this.formOpen ? [this.createForm] : []),
        this.said,
      ]
    }
  }
}
