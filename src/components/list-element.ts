import type { AuthClient } from '../client/index.js'
import { LatchkeyElement } from './base-element.js'
import { h, keep, refocus } from './dom.js'
import { errorMessage } from './messages.js'

/**
 * What `<latchkey-sessions>` and `<latchkey-accounts>` share: a list the signed-in user manages,
 * read anew for each user signed in, an error line, buttons disabled while their action runs, and
 * `latchkey-confirm-needed` when an action needs a recent sign-in.
 * Signed out it shows the `signed-out` slot.
 */
export abstract class ListElement<T> extends LatchkeyElement {
  protected list: T[] = []
  protected error = h('p', { class: 'error', part: 'error', role: 'alert', hidden: true })
  private shownFor?: string
  /** Kept from one render to the next, so a field in it keeps its focus. */
  private container = h('div', { class: 'stack', part: 'container' })
  constructor(client: AuthClient) {
    super(client)
  }
  /** The list as the server has it now. */
  protected abstract read(): Promise<T[]>
  /** The list's nodes, shown after the error line. */
  protected abstract show(): Node[]
  protected fail(e: unknown) {
    const code = (e as { code?: string }).code ?? 'ServerError'
    this.error.textContent = errorMessage(code, undefined, undefined, this.words)
    this.error.hidden = false
    // The action needs a recent sign-in: the page shows `<latchkey-signin confirm>`, then the user retries.
    if (code === 'SessionNotFresh') this.dispatchEvent(new CustomEvent('latchkey-confirm-needed', { bubbles: true, composed: true }))
  }
  private async load() {
    try {
      this.list = await this.read()
      this.error.hidden = true
    } catch (e) {
      this.fail(e)
    }
    this.render()
  }
  /** Runs a button's action; its answer is the list left. Answers whether it went through. */
  protected async act(button: HTMLButtonElement, run: () => Promise<T[] | unknown>): Promise<boolean> {
    // The rows are drawn anew: the focus goes to the button now where this one was (or the last one).
    const buttons = () => [...this.container.querySelectorAll('button')].filter((b) => !b.hidden)
    const at = this.root.activeElement === button ? buttons().indexOf(button) : -1
    button.disabled = true
    let done = false
    try {
      const left = await run()
      if (Array.isArray(left)) this.list = left
      this.error.hidden = true
      done = true
    } catch (e) {
      this.fail(e)
    } finally {
      button.disabled = false
    }
    this.render()
    if (at >= 0) refocus(() => (button.isConnected ? button : buttons()[Math.min(at, buttons().length - 1)]))
    return done
  }
  protected render() {
    const user = this.client.session?.user
    if (!user) {
      this.shownFor = undefined
      this.list = []
      return this.paint(h('slot', { name: 'signed-out' }))
    }
    // A new sign-in (or the first one seen) reads its list anew.
    const key = `${user.id ?? user.email}`
    if (this.shownFor !== key) {
      this.shownFor = key
      void this.load()
    }
    keep(this.container, [this.error, ...this.show()])
    this.paint(this.container)
  }
}
