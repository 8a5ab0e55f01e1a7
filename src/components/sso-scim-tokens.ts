/**
 * `<latchkey-sso-setup>`'s SCIM part, for a role with `scim:manage`: the endpoint to give the IdP,
 * the organization's tokens (names and dates, never a secret), "Create token" (the token shown
 * once, with Copy and a warning that it is not shown again) and Revoke, asked again in its row.
 * The element lends it what it needs (`ScimHost`) and shows what `show` gives.
 */
import type { AuthClient, ScimToken } from '../client/index.js'
import { when } from './dates.js'
import { h, isolate, keep } from './dom.js'
import { need } from './plugins.js'
import type { SsoKey } from './sso-words.js'

export interface ScimHost {
  client: AuthClient
  lang(): string
  p(key: SsoKey, values?: Record<string, unknown>): string
  heading(key: SsoKey): HTMLElement
  act(button: HTMLButtonElement, run: () => Promise<unknown>, why?: string): Promise<boolean>
  render(): void
  said(key: SsoKey, values?: Record<string, unknown>): void
  /** A value with its Copy button. */
  copyable(label: SsoKey, text: string, id: string): HTMLElement
  /** The form whose action failed, so its error shows under it. */
  failed(form: HTMLFormElement | undefined, field?: HTMLInputElement): void
}

export class ScimTokens {
  /** undefined: not read yet; null: the server has no scim plugin. */
  tokens?: ScimToken[] | null
  private endpoint = ''
  private readFor?: string
  /** The token just made, shown until dismissed. */
  private made?: { name: string; token: string }
  private revoking?: string
  private list = h('ul', { part: 'list', class: 'tokens', role: 'list' })
  nameInput = h('input', { name: 'tokenName', id: 'scim-name', autocomplete: 'off', required: true, maxlength: 100, part: 'input token-name-input' })
  private createButton = h('button', { type: 'submit', part: 'button create-token' })
  form: HTMLFormElement = h('form', { part: 'form token-form', novalidate: true, onsubmit: (e: Event) => (e.preventDefault(), void this.create()) },
    h('label', { part: 'label', for: 'scim-name' }, h('span'), this.nameInput),
    h('div', { class: 'row' }, this.createButton),
  )
  private hideButton: HTMLButtonElement = h('button', { type: 'button', part: 'button hide-token', onclick: () => this.hide() })

  constructor(private host: ScimHost, private organizationId: () => string | undefined) {}

  private get scim() {
    return need(this.host.client, 'scimTokens', 'latchkey-sso-setup')
  }

  show(key: string): Node[] {
    const id = this.organizationId()
    if (!id) return []
    if (this.readFor !== key) {
      this.readFor = key
      this.tokens = undefined
      this.made = this.revoking = undefined
      void this.read(id)
    }
    if (!this.tokens && this.tokens !== undefined) return []
    const tokens = this.tokens ?? []
    keep(this.list, tokens.map((t) => this.row(id, t)))
    this.form.querySelector('label > span')!.textContent = this.host.p('scimTokenName')
    this.form.setAttribute('aria-label', this.host.p('scimCreate'))
    this.createButton.textContent = this.host.p('scimCreate')
    const nodes: Node[] = [this.host.heading('scimHeading'), h('p', { part: 'message', class: 'muted' }, this.host.p('scimAbout'))]
    if (this.endpoint) nodes.push(this.host.copyable('scimEndpoint', this.endpoint, 'scim-endpoint'))
    nodes.push(tokens.length ? this.list : h('p', { part: 'empty', class: 'muted' }, this.host.p('scimNoTokens')))
    if (this.made) nodes.push(this.madePanel(this.made))
    nodes.push(this.form)
    return nodes
  }

  private async read(id: string) {
    try {
      const { tokens, endpoint } = await this.scim.list(id)
      this.tokens = tokens
      this.endpoint = endpoint
    } catch {
      // No scim plugin on the server (or the client): the part is left out.
      this.tokens = null
    }
    this.host.render()
  }

  private row(id: string, t: ScimToken): HTMLElement {
    const li = h('li', { part: 'token', 'data-token': t.id })
    const what = h('span', { class: 'what' }, h('bdi', { part: 'name' }, t.name), h('span', { part: 'detail' }, this.host.p('scimTokenMade', { date: when(this.host.lang(), t.createdAt) })))
    if (this.revoking !== t.id) {
      keep(li, [what, h('button', { type: 'button', part: 'button revoke-token', 'aria-label': this.host.p('scimRevokeName', { name: t.name }), onclick: () => this.ask(t.id) }, this.host.p('revoke'))])
      return li
    }
    const question = h('p', { part: 'message', id: `revoke-ask-${t.id}` }, this.host.p('scimRevokeAsk', { name: isolate(t.name) }))
    const yes: HTMLButtonElement = h('button', {
      type: 'button', part: 'button danger confirm-revoke', 'aria-describedby': question.id,
      onclick: () => this.host.act(yes, async () => {
        await this.scim.revoke(id, t.id)
        this.tokens = (this.tokens ?? []).filter((x) => x.id !== t.id)
        this.revoking = undefined
        this.host.said('scimRevoked', { name: isolate(t.name) })
      }),
    }, this.host.p('revoke'))
    keep(li, [what, h('div', { class: 'ask stack', part: 'revoke-ask', role: 'group', 'aria-label': this.host.p('scimRevokeName', { name: t.name }), onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && this.ask(undefined) },
      question, h('div', { class: 'row' }, yes, h('button', { type: 'button', part: 'button cancel', onclick: () => this.ask(undefined) }, this.host.p('cancel'))))])
    return li
  }

  private ask(tokenId: string | undefined) {
    const was = this.revoking
    this.revoking = tokenId
    this.host.render()
    const li = this.list.querySelector(`[data-token="${tokenId ?? was}"]`)
    li?.querySelector<HTMLButtonElement>(tokenId ? '[part~=confirm-revoke]' : '[part~=revoke-token]')?.focus()
  }

  private madePanel(made: { name: string; token: string }): HTMLElement {
    this.hideButton.textContent = this.host.p('scimHide')
    return h('div', { class: 'stack', part: 'new-token', role: 'group', 'aria-labelledby': 'scim-once' },
      h('p', { part: 'message warning', id: 'scim-once' }, this.host.p('scimShownOnce', { name: isolate(made.name) })),
      this.host.copyable('scimNewToken', made.token, 'scim-token'),
      this.hideButton,
    )
  }

  private hide() {
    this.made = undefined
    this.host.render()
    this.nameInput.focus()
  }

  private async create() {
    const id = this.organizationId()
    if (!id) return
    const name = this.nameInput.value.trim()
    this.host.failed(this.form, this.nameInput)
    const ok = await this.host.act(this.createButton, async () => {
      if (!name) throw Object.assign(new Error('invalid'), { code: 'InvalidRequest' })
      const made = await this.scim.create(id, name)
      this.tokens = [...(this.tokens ?? []), { id: made.id, name: made.name, createdBy: made.createdBy, createdAt: made.createdAt }]
      this.made = { name: made.name, token: made.token }
      this.host.said('scimCreated', { name: isolate(made.name) })
    }, this.host.p('whyCreateScimToken'))
    if (!ok) return
    this.host.failed(undefined)
    this.nameInput.value = ''
    this.host.render()
    this.hideButton.focus()
  }
}
