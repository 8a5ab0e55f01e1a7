import type { AuthClient } from '../client/index.js'
import { h } from './dom.js'
import { need } from './plugins.js'
import { SettingsList } from './settings-list.js'

/**
 * `<latchkey-password>`: whether the signed-in user has a password, and "Change password" (the
 * current one and a new one) or "Set a password" (a new one, for an account that signs in by
 * email, passkey or OAuth), through the password plugin (`client.password.set`). Saving ends the
 * user's other sessions, and says so. It needs a recent sign-in: the element then asks for one
 * (fresh.ts). The fields carry `autocomplete` (`current-password`, `new-password`, and the
 * address as `username`) so a password manager fills and saves them. Empty when signed out.
 */
export function passwordElement(client: AuthClient): CustomElementConstructor {
  /** The state is one item: whether the user has a password (a list of one, for ListElement). */
  return class LatchkeyPassword extends SettingsList<{ hasPassword: boolean }> {
    /** The open form: kept while open, so its fields keep what is typed. */
    private form?: HTMLFormElement
    /** Whether the user had a password when it opened: it asks for the current one then. */
    private formFor?: boolean
    private state = h('p', { part: 'message state' })
    private opener: HTMLButtonElement = h('button', { type: 'button', part: 'button primary open', onclick: () => this.open(true) })
    constructor() {
      super(client)
    }
    private get password() {
      return need(this.client, 'password', 'latchkey-password')
    }
    protected async read() {
      const [state, providers] = await Promise.all([this.password.status(), this.client.getProviders()])
      // The `Password()` provider's length rules.
      this.lengths = Object.values(providers).find((p) => p.password)?.password
      return [state]
    }
    /** Another user's form never stays. */
    protected override forget() {
      this.form = undefined
    }
    /** A form to change a password the user no longer has (or to set one they now have) goes. */
    protected override reread() {
      if (this.form && this.formFor !== this.has) this.form = undefined
    }
    protected override say(e: unknown): string {
      const { code = 'ServerError' } = e as { code?: string }
      // `set` answers a wrong current password as a failed sign-in.
      return code === 'CredentialsSignin' ? this.p('wrongCurrentPassword') : super.say(e)
    }
    private get has() {
      return !!this.list[0]?.hasPassword
    }
    /** Opens the form, its first field focused; or closes it, the focus back on the button that opens it. */
    private open(on: boolean) {
      this.form = on ? this.makeForm() : undefined
      this.formFor = this.has
      this.failedForm = undefined
      this.error.hidden = true
      if (on) this.said.textContent = ''
      this.render()
      ;(on ? this.form?.querySelector<HTMLInputElement>('input:not([hidden])') : this.opener)?.focus()
    }
    private makeForm(): HTMLFormElement {
      const has = this.has
      const input = (words: string, props: Record<string, unknown>): [HTMLLabelElement, HTMLInputElement] => {
        const el = h('input', { type: 'password', required: true, part: 'input', ...props })
        return [h('label', { part: 'label' }, words, el), el]
      }
      // The account the password is for, so a password manager saves it under that name.
      const account = h('input', { type: 'email', name: 'email', autocomplete: 'username', value: this.client.session?.user?.email ?? '', hidden: true, tabindex: '-1' })
      const [currentLabel, current] = input(this.p('currentPassword'), { name: 'current-password', autocomplete: 'current-password' })
      const [chosenLabel, chosen] = input(this.t('newPassword'), { name: 'new-password', autocomplete: 'new-password', minlength: this.lengths?.minLength })
      const save = h('button', { type: 'submit', part: 'button primary submit' }, this.p('savePassword'))
      const form: HTMLFormElement = h('form', {
        part: 'form set-password-form', 'aria-label': has ? this.t('changePassword') : this.p('setPassword'),
        onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && this.open(false),
        onsubmit: async (e: Event) => {
          e.preventDefault()
          this.failedForm = form
          // Run anew too, once a recent sign-in was confirmed: the form closes, and the status line says so.
          const saved = await this.act(save, async () => {
            const state = await this.password.set({ password: chosen.value, ...(has && { currentPassword: current.value }) })
            this.form = undefined
            this.said.textContent = this.p('passwordSaved')
            return [state]
          }, this.p(has ? 'whyChangePassword' : 'whySetPassword'))
          if (saved) this.opener.focus()
        },
      },
        account, ...(has ? [currentLabel] : []), chosenLabel,
        h('div', { class: 'row' }, save, h('button', { type: 'button', part: 'button cancel', onclick: () => this.open(false) }, this.t('cancel'))),
      )
      return form
    }
    protected show() {
      if (!this.list.length) return [this.said]
      this.state.textContent = this.p(this.has ? 'passwordIsSet' : 'noPassword')
      this.opener.textContent = this.has ? this.t('changePassword') : this.p('setPassword')
      this.opener.hidden = !!this.form
      return [this.state, this.opener, ...(this.form ? [this.form] : []), this.said]
    }
  }
}
