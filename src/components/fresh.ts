/**
 * "Confirm it's you": what every element does, one way, when an action needs a recent sign-in
 * (the server's `SessionNotFresh`, docs/errors.md). Its error line says why ("Confirm it's you
 * to end that session: sign in again."), it fires `latchkey-confirm-needed` with `{ why, retry }`,
 * and, unless the page takes that over (`event.preventDefault()`, then shows its own
 * `<latchkey-signin confirm>`), it opens a panel under the error line: `<latchkey-signin confirm>`
 * and Cancel. Once the same user signed in again there, the panel goes and the action runs again.
 */
import { h, refocus } from './dom.js'
import type { ProfileKey } from './profile-words.js'
import type { Key } from './words.js'

/** `latchkey-confirm-needed`'s detail: why a recent sign-in is needed, and the action to run again once confirmed. */
export interface ConfirmNeeded {
  why: string
  retry(): Promise<unknown>
}

export class FreshSignIn {
  /** The open panel, for the element to show under its error line. */
  panel?: HTMLElement
  private done?: AbortController
  constructor(
    private element: HTMLElement,
    private t: (key: Key | ProfileKey, values?: Record<string, unknown>) => string,
    private error: HTMLElement,
    private changed: () => void,
  ) {}

  /**
   * Says why `retry` needs a recent sign-in and asks for one. `back`: where the focus goes once
   * the panel closes (what was pressed, or what stands in its place now).
   */
  ask(why: string, retry: () => Promise<unknown>, back: () => HTMLElement | null | undefined): void {
    this.close()
    this.error.textContent = this.t('freshNeeded', { why })
    this.error.hidden = false
    const detail: ConfirmNeeded = { why, retry }
    if (!this.element.dispatchEvent(new CustomEvent('latchkey-confirm-needed', { bubbles: true, composed: true, cancelable: true, detail }))) return
    const signIn = document.createElement('latchkey-signin')
    signIn.setAttribute('confirm', '')
    const end = (again: boolean) => {
      this.close()
      this.error.hidden = true
      this.changed()
      // Once the action ran again (what was pressed may be gone then), the focus goes back near it.
      if (again) void retry().finally(() => refocus(back))
      else refocus(back)
    }
    const cancel = h('button', { type: 'button', part: 'button cancel', onclick: () => end(false) }, this.t('cancel'))
    // Focused when it opens, so a screen reader reads why (aria-describedby) and Tab goes on into the sign-in.
    const panel = h('div', {
      class: 'stack', part: 'confirm', role: 'group', tabindex: '-1', 'aria-label': this.t('confirmHeading'), 'aria-describedby': this.error.id,
      onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && end(false),
    }, signIn, cancel)
    this.done = new AbortController()
    // Confirmed here: run the action again. Confirmed elsewhere on the page: the panel is no longer needed.
    panel.addEventListener('latchkey-confirmed', () => end(true), { signal: this.done.signal })
    document.addEventListener('latchkey-confirmed', () => this.panel && end(false), { signal: this.done.signal })
    this.panel = panel
    this.changed()
    panel.focus()
  }

  close(): void {
    this.done?.abort()
    this.done = undefined
    this.panel = undefined
  }
}
