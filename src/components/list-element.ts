import type { AuthClient } from '../client/index.js'
import { LatchkeyElement } from './base-element.js'
import { h, keep, refocus } from './dom.js'
import { FreshSignIn } from './fresh.js'
import { errorMessage } from './messages.js'
import { profileWordsFor, sayProfile, type ProfileKey } from './profile-words.js'
import type { Key } from './words.js'

/**
 * What the elements that manage the signed-in user's things share (`<latchkey-sessions>`,
 * `<latchkey-accounts>`, `<latchkey-mfa>`, `<latchkey-passkeys>`, `<latchkey-password>`): a
 * list read anew for each sign-in (another user, or the same one signed in again: a device it
 * trusted, the session it made), an error line, buttons disabled while their action runs, and
 * "Confirm it's you" (fresh.ts) when an action needs a recent sign-in. They speak the account
 * settings elements' words too (profile-words.ts), loaded with them rather than up front.
 * Signed out it shows the `signed-out` slot.
 */
export abstract class ListElement<T> extends LatchkeyElement {
  protected override wordsFor(tag: string) {
    return profileWordsFor(this.client, tag)
  }
  /** `key`'s message, of the sign-in elements' catalogue or the settings elements', in this element's language. */
  protected override t = (key: Key | ProfileKey, values?: Record<string, unknown>): string => sayProfile(this.words, key as ProfileKey, values)
  protected list: T[] = []
  protected error = h('p', { class: 'error', part: 'error', role: 'alert', hidden: true, id: 'error' })
  protected fresh = new FreshSignIn(this, this.t, this.error, () => this.render())
  /** The form whose action failed: its error shows under its fields, which name it. */
  protected failedForm?: HTMLFormElement
  /** The field of `failedForm` the error is about, where one is: the error shows under it, and it alone names it. */
  protected failedField?: HTMLInputElement
  /** The sign-in the list was read for, and its user. */
  private shownFor?: string
  private shownUser?: string
  /** Out of the document since it last drew: a sign-out may have gone by unseen. */
  private away = false
  /** The read under way: an action waits for it, so that its answer, the newer, is the one kept. */
  private reading?: Promise<void>
  /** Kept from one render to the next, so a field in it keeps its focus. */
  protected container = h('div', { class: 'stack', part: 'container' })
  constructor(client: AuthClient) {
    super(client)
  }
  /** The list as the server has it now. */
  protected abstract read(): Promise<T[]>
  /**
   * What is open (a form, a question, codes on screen) goes: signed out, another user signed in,
   * or a sign-in after a sign-out the element did not see. The same user signing in again (a
   * recent sign-in confirmed, a device trusted) keeps it, and what is typed in it.
   */
  protected forget(): void {}
  /** The list was read anew (`list` is the answer): what was open on something no longer in it closes. */
  protected reread(): void {}
  /** The list's nodes, shown after the error line. */
  protected abstract show(): Node[]
  /** A password provider's length rules, where the element knows them: a refused length names the limit. */
  protected lengths?: { minLength: number; maxLength: number }
  /** The words for a failure (a passkey's `reason` may say more than its code). */
  protected say(e: unknown): string {
    const { code = 'ServerError', reason } = e as { code?: string; reason?: string }
    return errorMessage(code, reason, this.lengths, this.words)
  }
  protected fail(e: unknown) {
    this.error.textContent = this.say(e)
    this.error.hidden = false
  }
  /** Reads the list anew (what it shows changed elsewhere: the session's organization, say). */
  protected readAgain(): void {
    this.reading = this.load()
  }
  private async load() {
    try {
      this.list = await this.read()
      this.reread()
      this.error.hidden = true
    } catch (e) {
      this.fail(e)
      // The server does not offer this (its feature is off, or sessions are JWTs): `<latchkey-profile>` leaves the section out.
      const { code } = e as { code?: string }
      if (code === 'UnknownAction' || code === 'NotSupported') this.dispatchEvent(new CustomEvent('latchkey-unavailable', { bubbles: true, composed: true, detail: { code } }))
    }
    this.render()
  }
  /**
   * Runs a button's action; its answer is the list left. Answers whether it went through. `why`:
   * what the action does, as "Confirm it's you to {why}" says it when it needs a recent sign-in.
   */
  protected async act(button: HTMLButtonElement, run: () => Promise<T[] | unknown>, why = this.t('whyThis')): Promise<boolean> {
    // The rows are drawn anew: the focus goes to the button now where this one was (or the last one).
    const buttons = () => [...this.container.querySelectorAll('button')].filter((b) => !b.hidden)
    const at = this.root.activeElement === button ? buttons().indexOf(button) : -1
    const standIn = () => (button.isConnected ? button : buttons()[Math.max(0, Math.min(at, buttons().length - 1))])
    button.disabled = true
    this.fresh.close()
    let done = false
    try {
      await this.reading
      const left = await run()
      if (Array.isArray(left)) this.list = left
      this.error.hidden = true
      done = true
    } catch (e) {
      if ((e as { code?: string }).code === 'SessionNotFresh') this.fresh.ask(why, () => this.act(button, run, why), standIn)
      else this.fail(e)
    } finally {
      button.disabled = false
    }
    this.render()
    if (at >= 0) refocus(standIn)
    return done
  }
  override disconnectedCallback() {
    super.disconnectedCallback()
    this.away = true
  }
  protected render() {
    const user = this.client.session?.user
    if (!user) {
      this.shownFor = this.shownUser = undefined
      this.list = []
      this.fresh.close()
      this.forget()
      return this.paint(h('slot', { name: 'signed-out' }))
    }
    // A new sign-in (or the first one seen) reads its list anew: one the element saw, or one made
    // while it was out of the document (a profile shows its sections only while signed in).
    const who = `${user.id ?? user.email}`
    const key = `${who} ${this.client.session?.signedInAt ?? ''}`
    if (this.shownFor !== key) {
      if (this.away || this.shownUser !== who) this.forget()
      this.shownFor = key
      this.shownUser = who
      this.readAgain()
    }
    this.away = false
    keep(this.container, [this.error, ...(this.fresh.panel ? [this.fresh.panel] : []), ...this.show()])
    this.paint(this.container)
    // An error about a form's field shows under it, and the field names it.
    for (const input of this.root.querySelectorAll('input[aria-describedby]')) input.removeAttribute('aria-describedby')
    const form = this.failedForm
    if (!this.error.hidden && form?.isConnected) {
      const field = this.failedField && form.contains(this.failedField) ? this.failedField : undefined
      if (field) (field.closest('label') ?? field).after(this.error)
      else form.querySelector('button[type=submit]')?.before(this.error)
      for (const input of field ? [field] : form.querySelectorAll('input')) input.setAttribute('aria-describedby', this.error.id)
    }
  }
}
