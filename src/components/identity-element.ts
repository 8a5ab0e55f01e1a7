import type { AuthClient, IdentityInfo } from '../client/index.js'
import { h } from './dom.js'
import { maybe } from './plugins.js'
import { SettingsList } from './settings-list.js'

/** Up to two letters for an avatar without an image: of the name's first two words, else of the address. */
const initials = (name: string) => name.trim().split(/[\s@._-]+/).filter(Boolean).slice(0, 2).map((word) => [...word][0]!.toUpperCase()).join('')

/** What the element knows of the server: whether it can change anything (the identity plugin, and /identity). */
type State = { editable: false } | ({ editable: true } & IdentityInfo)

/** A refusal made here, before asking the server: said as the server's would be. */
const invalid = () => Object.assign(new Error('invalid'), { code: 'InvalidRequest' })

/** The image URLs the server takes: https, or http on this machine (fields.ts on the server). */
const takenImage = (value: string) => /^https:\/\/\S+$/i.test(value) || /^http:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/\S*)?$/i.test(value)

/**
 * `<latchkey-identity>`: the signed-in user's image (or their initials), name and email address,
 * from the session. With the identity plugin (`client.identity`) and a server that has /identity,
 * each can be changed: the name and the image URL (a field and Save each, empty to clear), and the
 * address ("Change email": the new address, then "Check your inbox": it changes once the link
 * sent there is opened; it needs a recent sign-in, asked for in place: fresh.ts). Without them it
 * only shows. Errors show under their field, which names them. Empty when signed out.
 */
export function identityElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeyIdentity extends SettingsList<State> {
    /** What is typed and not saved yet: a session change does not overwrite it. */
    private dirty = new Set<HTMLInputElement>()
    private nameInput = this.field({ name: 'name', autocomplete: 'name', maxlength: 100, part: 'input name-input' })
    private nameSave = h('button', { type: 'submit', part: 'button save' })
    private nameForm = this.form('name-form', this.nameInput, this.nameSave, () => this.saveName())
    private imageInput = this.field({ name: 'image', type: 'url', inputmode: 'url', autocomplete: 'photo', maxlength: 2048, part: 'input image-input', dir: 'ltr' })
    private imageSave = h('button', { type: 'submit', part: 'button save' })
    private imageForm = this.form('image-form', this.imageInput, this.imageSave, () => this.saveImage())
    private opener: HTMLButtonElement = h('button', { type: 'button', part: 'button change-email', onclick: () => this.open(true) })
    private emailInput = h('input', { type: 'email', name: 'email', autocomplete: 'email', required: true, part: 'input email-input', dir: 'ltr' })
    private emailSend = h('button', { type: 'submit', part: 'button primary send' })
    private emailCancel = h('button', { type: 'button', part: 'button cancel', onclick: () => this.open(false) })
    private emailForm: HTMLFormElement = h('form', {
      part: 'form email-form', novalidate: true,
      onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && this.open(false),
      onsubmit: (e: Event) => (e.preventDefault(), void this.sendLink()),
    }, h('label', { part: 'label' }, h('span'), this.emailInput), h('div', { class: 'row' }, this.emailSend, this.emailCancel))
    /** Whether the email form is open. */
    private emailOpen = false
    /** The address a link was sent to, shown until the user signs in as someone else. */
    private sentTo?: string
    private sent = h('p', { part: 'message sent', role: 'status' })
    /** What the status line says (a save went through), and the last refusal: said again in a new language. */
    private saved?: 'nameSaved' | 'imageSaved'
    private refusal?: unknown
    constructor() {
      super(client)
    }
    private get identity() {
      return maybe(this.client, 'identity')
    }
    private field(props: Record<string, unknown>): HTMLInputElement {
      const input = h('input', props)
      input.addEventListener('input', () => this.dirty.add(input))
      return input
    }
    private form(part: string, input: HTMLInputElement, save: HTMLButtonElement, run: () => Promise<void>): HTMLFormElement {
      const label = h('label', { part: 'label' }, h('span'), input)
      return h('form', { part: `form ${part}`, novalidate: true, onsubmit: (e: Event) => (e.preventDefault(), void run()) }, label, h('div', { class: 'row' }, save))
    }
    /** Another user's typing, open form and sent link never stay; the same user's new sign-in keeps them. */
    protected override forget() {
      this.dirty.clear()
      this.emailOpen = false
      this.sentTo = undefined
      this.saved = undefined
    }
    protected async read(): Promise<State[]> {
      if (!this.identity) return [{ editable: false }]
      try {
        return [{ editable: true, ...(await this.identity.get()) }]
      } catch (e) {
        // A server without /identity (no adapter): the user is shown, not edited.
        const { code } = e as { code?: string }
        if (code === 'UnknownAction' || code === 'NotSupported' || code === 'NotLatchkey') return [{ editable: false }]
        throw e
      }
    }
    protected override say(e: unknown): string {
      // The server says which field it refused; here each form's own words.
      const { code } = e as { code?: string }
      if (code === 'SameEmail') return this.p('sameEmail')
      if (code === 'InvalidRequest') {
        if (this.failedForm === this.nameForm) return this.p('nameInvalid')
        if (this.failedForm === this.imageForm) return this.p('imageInvalid')
        if (this.failedForm === this.emailForm) return this.p('emailInvalid')
      }
      return super.say(e)
    }
    protected override fail(e: unknown) {
      this.refusal = e
      super.fail(e)
    }
    protected override relang() {
      if (!this.error.hidden && this.refusal) this.error.textContent = this.say(this.refusal)
      super.relang()
    }
    private get state(): State {
      return this.list[0] ?? { editable: false }
    }
    private async saveName() {
      this.failedForm = this.nameForm
      this.saved = undefined
      const name = this.nameInput.value.trim()
      const saved = await this.act(this.nameSave, async () => {
        if ([...name].length > 100) throw invalid()
        await this.identity!.update({ name: name || null })
        this.dirty.delete(this.nameInput)
        this.saved = 'nameSaved'
      })
      if (saved) this.failedForm = undefined
    }
    private async saveImage() {
      this.failedForm = this.imageForm
      this.saved = undefined
      const image = this.imageInput.value.trim()
      const saved = await this.act(this.imageSave, async () => {
        if (image && !takenImage(image)) throw invalid()
        await this.identity!.update({ image: image || null })
        this.dirty.delete(this.imageInput)
        this.saved = 'imageSaved'
      })
      if (saved) this.failedForm = undefined
    }
    /** Opens the email form, its field focused and empty; or closes it, the focus back on Change email. */
    private open(on: boolean) {
      this.emailOpen = on
      this.emailInput.value = ''
      this.failedForm = undefined
      this.error.hidden = true
      this.render()
      ;(on ? this.emailInput : this.opener).focus()
    }
    private async sendLink() {
      this.failedForm = this.emailForm
      const email = this.emailInput.value.trim()
      // Run anew too, once a recent sign-in was confirmed.
      const done = await this.act(this.emailSend, async () => {
        if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw invalid()
        if (email.toLowerCase() === this.client.session?.user?.email?.toLowerCase()) throw Object.assign(new Error('same'), { code: 'SameEmail' })
        await this.identity!.changeEmail(email)
        this.emailOpen = false
        this.failedForm = undefined
        this.sentTo = email
      }, this.p('whyChangeEmail'))
      if (done) this.opener.focus()
    }
    /** The field shows the session's value, unless the user is typing another. */
    private fill(input: HTMLInputElement, value: string | null | undefined) {
      if (!this.dirty.has(input)) input.value = value ?? ''
    }
    private summary(): HTMLElement {
      const user = this.client.session!.user!
      const mark = () => h('span', { class: 'avatar initials', part: 'avatar initials', 'aria-hidden': 'true' }, initials(user.name || user.email || '?'))
      // Decorative: the name beside it says whose it is. An image that does not load gives way to the initials.
      const avatar = user.image ? h('img', { class: 'avatar', part: 'avatar', src: user.image, alt: '', onerror: () => avatar.replaceWith(mark()) }) : mark()
      return h('div', { class: 'identity', part: 'summary' },
        avatar,
        h('dl', { part: 'details' },
          // <bdi>: a name or address in another script keeps its own direction, in its place.
          h('dt', { part: 'label' }, this.p('nameLabel')), h('dd', { part: 'value name' }, user.name ? h('bdi', {}, user.name) : this.p('noName')),
          h('dt', { part: 'label' }, this.t('email')), h('dd', { part: 'value email' }, h('bdi', {}, user.email ?? '')),
        ),
      )
    }
    protected show(): Node[] {
      const user = this.client.session?.user
      if (!user) return []
      const state = this.state
      if (!state.editable) return [this.summary()]
      // The words, in the element's language (they change with it).
      this.nameForm.querySelector('span')!.textContent = this.p('nameLabel')
      this.imageForm.querySelector('span')!.textContent = this.p('imageLabel')
      this.nameSave.textContent = this.imageSave.textContent = this.p('save')
      this.nameForm.setAttribute('aria-label', this.p('nameLabel'))
      this.imageForm.setAttribute('aria-label', this.p('imageLabel'))
      this.opener.textContent = this.p('changeEmail')
      this.opener.hidden = this.emailOpen
      this.emailForm.setAttribute('aria-label', this.p('changeEmail'))
      this.emailForm.querySelector('span')!.textContent = this.p('newEmail')
      this.emailSend.textContent = this.p('sendEmailLink')
      this.emailCancel.textContent = this.t('cancel')
      this.fill(this.nameInput, user.name)
      this.fill(this.imageInput, user.image)
      // Confirmed (here or in another tab): the session has the new address, and nothing waits.
      if (this.sentTo && this.sentTo.toLowerCase() === user.email?.toLowerCase()) this.sentTo = undefined
      this.sent.textContent = this.sentTo ? this.p('emailLinkSent', { email: this.sentTo }) : ''
      this.said.textContent = this.saved ? this.p(this.saved) : ''
      const email = state.emailChange ? [this.opener, ...(this.emailOpen ? [this.emailForm] : []), this.sent] : []
      return [this.summary(), this.nameForm, this.imageForm, ...email, this.said]
    }
  }
}
