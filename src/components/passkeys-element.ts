import type { AuthClient } from '../client/index.js'
import type { PasskeyInfo } from '../client/passkey/index.js'
import { when } from './dates.js'
import { h, keep } from './dom.js'
import { kindOf, passkeyIcon } from './passkey-icons.js'
import { maybe, need } from './plugins.js'
import type { ProfileKey } from './profile-words.js'
import { SettingsList } from './settings-list.js'

/** What the server calls an authenticator whose model it does not know (`PasskeyInfo.authenticator`). */
const unknownModel = 'Passkey'
const kindWords = { synced: 'syncedPasskey', key: 'securityKey', device: 'devicePasskey' } as const

/**
 * `<latchkey-passkeys>`: the signed-in user's passkeys (the passkey plugin's list). Each shows an
 * icon for what it is (synced, a security key, on one device), its name (the one the user gave
 * it, else its authenticator's from the AAGUID, "iCloud Keychain", else what it is), what made
 * it and when it was added, with Rename (a field in its row: Enter saves, Escape cancels) and
 * Remove (asked again in its row). "Add a passkey" runs the browser's ceremony. Adding and
 * removing need a recent sign-in: the element then asks for one (fresh.ts). Empty when signed out.
 */
export function passkeysElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeyPasskeys extends SettingsList<PasskeyInfo> {
    /** The row whose name is being changed, or whose removal is asked: kept while open, so its field keeps what is typed. */
    private editing?: { id: string; mode: 'rename' | 'remove' }
    /** The open rename form, kept when its row is drawn anew (a re-read), so what is typed stays. */
    private renaming?: { id: string; form: HTMLFormElement }
    /** Each row as drawn, kept while what it shows is the same (a field in it keeps its focus). */
    private rows = new Map<string, { shown: string; li: HTMLLIElement }>()
    private listed = h('ul', { part: 'list', class: 'passkeys' })
    private empty = h('p', { part: 'empty', class: 'muted' })
    private add: HTMLButtonElement = h('button', { type: 'button', part: 'button primary add', onclick: () => this.addOne() })
    private unsupported = h('p', { part: 'message unsupported', class: 'muted' })
    constructor() {
      super(client)
    }
    private get passkey() {
      return need(this.client, 'passkey', 'latchkey-passkeys')
    }
    protected read() {
      return this.passkey.list()
    }
    protected override forget() {
      this.editing = this.renaming = undefined
    }
    /** A row open on a passkey that is gone (removed in another tab) closes. */
    protected override reread() {
      if (this.editing && !this.list.some((p) => p.id === this.editing!.id)) this.forget()
    }
    protected override say(e: unknown): string {
      const { reason } = e as { reason?: string }
      // The browser's dialog dismissed (or another ceremony started): nothing was added, and nothing is wrong.
      if (reason === 'not-allowed' || reason === 'cancelled') return this.p('passkeyNotAdded')
      return super.say(e)
    }
    /** The name a person knows it by: theirs, else the authenticator's, else what it is. */
    private name(p: PasskeyInfo): string {
      return p.name || (p.authenticator !== unknownModel ? p.authenticator : this.p(kindWords[kindOf(p)]))
    }
    /** What made it (where the name does not say it already) and when it was added. */
    private detail(p: PasskeyInfo): string {
      const model = p.authenticator !== unknownModel ? p.authenticator : undefined
      const what = p.name ? (model ?? this.p(kindWords[kindOf(p)])) : model && this.p(kindWords[kindOf(p)])
      return [what, p.createdAt && this.t('added', { date: when(this.words.lang, p.createdAt) })].filter(Boolean).join(' · ')
    }
    private open(id: string | undefined, mode: 'rename' | 'remove' = 'rename') {
      this.editing = id === undefined ? undefined : { id, mode }
      this.renaming = undefined
      this.failedForm = undefined
      this.error.hidden = true
      if (id !== undefined) this.said.textContent = ''
      this.render()
      const li = id === undefined ? undefined : this.rows.get(id)?.li
      const field = mode === 'rename' ? li?.querySelector('input') : undefined
      ;(field ?? li?.querySelector<HTMLElement>('[part~="remove-confirm"]'))?.focus()
      field?.select()
    }
    /** Closes the open row; the focus goes back to its `back` button. */
    private close(id: string, back: 'rename' | 'remove') {
      this.open(undefined)
      this.rows.get(id)?.li.querySelector<HTMLElement>(`[part~="${back}"]`)?.focus()
    }
    private row(p: PasskeyInfo): HTMLLIElement {
      const label = this.name(p)
      const li = h('li', { part: 'passkey', 'data-id': p.id },
        passkeyIcon(kindOf(p)),
        h('div', { class: 'what' }, h('span', { part: 'name' }, h('bdi', {}, label)), h('span', { part: 'detail' }, this.detail(p))),
      )
      const mode = this.editing?.id === p.id ? this.editing.mode : undefined
      if (mode === 'rename') li.append(this.renaming?.id === p.id ? this.renaming.form : (this.renaming = { id: p.id, form: this.renameForm(p, label) }).form)
      else if (mode === 'remove') li.append(this.removeAsk(p, label))
      else {
        li.append(h('div', { class: 'row' },
          h('button', { type: 'button', part: 'button rename', 'aria-label': this.p('renameName', { name: label }), onclick: () => this.open(p.id, 'rename') }, this.p('rename')),
          h('button', { type: 'button', part: 'button remove', 'aria-label': this.t('removeName', { name: label }), onclick: () => this.open(p.id, 'remove') }, this.t('remove')),
        ))
      }
      return li
    }
    private renameForm(p: PasskeyInfo, label: string): HTMLFormElement {
      const input = h('input', { name: 'name', value: p.name ?? '', maxLength: 64, autocomplete: 'off', part: 'input name-input' })
      const save = h('button', { type: 'submit', part: 'button save' }, this.p('save'))
      const form: HTMLFormElement = h('form', {
        part: 'form rename-form', 'aria-label': this.p('renameName', { name: label }),
        onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && this.close(p.id, 'rename'),
        onsubmit: async (e: Event) => {
          e.preventDefault()
          this.failedForm = form
          const renamed = await this.act(save, () => this.done(this.passkey.rename(p.id, input.value), 'passkeyRenamed'))
          if (renamed) this.close(p.id, 'rename')
        },
      },
        h('label', { part: 'label' }, this.p('passkeyNameLabel'), input),
        h('div', { class: 'row' }, save, h('button', { type: 'button', part: 'button cancel', onclick: () => this.close(p.id, 'rename') }, this.t('cancel'))),
      )
      return form
    }
    private removeAsk(p: PasskeyInfo, label: string): HTMLElement {
      const question = h('p', { part: 'message', id: `ask-${p.id}` }, this.p('removeAsk', { name: label }))
      const yes: HTMLButtonElement = h('button', {
        type: 'button', part: 'button danger remove-confirm', 'aria-describedby': question.id,
        onclick: () => this.act(yes, () => this.done(this.passkey.remove(p.id), 'passkeyRemoved'), this.p('whyRemovePasskey', { name: label })),
      }, this.p('removePasskey'))
      return h('div', { class: 'ask stack', part: 'remove-ask', role: 'group', 'aria-label': this.t('removeName', { name: label }), onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && this.close(p.id, 'remove') },
        question,
        h('div', { class: 'row' }, yes, h('button', { type: 'button', part: 'button cancel', onclick: () => this.close(p.id, 'remove') }, this.t('cancel'))),
      )
    }
    private addOne() {
      this.said.textContent = ''
      return this.act(this.add, () => this.done(this.passkey.register().then(() => this.passkey.list()), 'passkeyAdded'), this.p('whyAddPasskey'))
    }
    /** An action that went through (run anew too, once a recent sign-in was confirmed): the row closes, and the status line says so. */
    private async done(left: Promise<PasskeyInfo[]>, words: ProfileKey): Promise<PasskeyInfo[]> {
      const list = await left
      this.editing = undefined
      this.said.textContent = this.p(words)
      return list
    }
    protected show() {
      const { lang } = this.words
      const lis = this.list.map((p) => {
        const shown = JSON.stringify([p, this.editing?.id === p.id && this.editing.mode, lang])
        let row = this.rows.get(p.id)
        if (row?.shown !== shown) this.rows.set(p.id, (row = { shown, li: this.row(p) }))
        return row.li
      })
      for (const id of this.rows.keys()) if (!this.list.some((p) => p.id === id)) this.rows.delete(id)
      keep(this.listed, lis)
      this.listed.setAttribute('aria-label', this.p('passkeysHeading'))
      this.listed.hidden = !lis.length
      this.empty.textContent = this.p('noPasskeys')
      this.empty.hidden = !!lis.length
      this.add.textContent = this.p('addPasskey')
      // Without WebAuthn here, the list still shows (and Rename, Remove), but nothing can be added.
      const can = maybe(this.client, 'passkey')?.supported() !== false
      this.add.hidden = !can
      this.unsupported.textContent = this.p('noPasskeysHere')
      this.unsupported.hidden = can
      return [this.listed, this.empty, this.add, this.unsupported, this.said]
    }
  }
}
