import type { AuthClient, SessionInfo } from '../client/index.js'
import { LatchkeyElement } from './base-element.js'
import { h } from './dom.js'
import { errorMessage } from './messages.js'

/**
 * `<latchkey-sessions>`: the signed-in user's sessions, one per device, each with an end button,
 * and one to end all the others. Ending another session needs a recent sign-in: the element then
 * says so and fires `latchkey-confirm-needed` (show `<latchkey-signin confirm>`). Empty when
 * signed out.
 */
export function sessionsElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeySessions extends LatchkeyElement {
    private list: SessionInfo[] = []
    private error = h('p', { class: 'error', part: 'error', role: 'alert', hidden: true })
    private shownFor?: string
    constructor() {
      super(client)
    }
    private async load() {
      try {
        this.list = await this.client.sessions.list()
        this.error.hidden = true
      } catch (e) {
        this.fail(e)
      }
      this.render()
    }
    private fail(e: unknown) {
      const code = (e as { code?: string }).code ?? 'ServerError'
      this.error.textContent = code === 'SessionNotFresh' ? "Confirm it's you (sign in again), then end the session." : errorMessage(code)
      this.error.hidden = false
      if (code === 'SessionNotFresh') this.dispatchEvent(new CustomEvent('latchkey-confirm-needed', { bubbles: true, composed: true }))
    }
    private async act(button: HTMLButtonElement, run: () => Promise<SessionInfo[]>) {
      button.disabled = true
      try {
        this.list = await run()
        this.error.hidden = true
      } catch (e) {
        this.fail(e)
      } finally {
        button.disabled = false
      }
      this.render()
    }
    protected render() {
      const user = this.client.session?.user
      if (!user) {
        this.shownFor = undefined
        this.list = []
        return this.paint(h('slot', { name: 'signed-out' }))
      }
      // A new sign-in (or the first one seen) lists its sessions anew.
      const key = `${user.id ?? user.email}`
      if (this.shownFor !== key) {
        this.shownFor = key
        void this.load()
      }
      const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'unknown')
      const rows = this.list.map((s) => {
        const end: HTMLButtonElement = h('button', { type: 'button', part: 'button end', onclick: () => this.act(end, () => this.client.sessions.revoke(s.id)) }, s.current ? 'Sign out here' : 'End')
        return h('li', { part: 'session', 'data-current': s.current },
          h('span', { part: 'device' }, s.device, s.current ? ' (this device)' : ''),
          h('span', { part: 'when' }, `signed in ${date(s.createdAt)}, last seen ${date(s.lastSeenAt)}`),
          end,
        )
      })
      const others = this.list.filter((s) => !s.current).length
      const endOthers: HTMLButtonElement = h('button', { type: 'button', part: 'button end-others', hidden: !others, onclick: () => this.act(endOthers, () => this.client.sessions.revokeOthers()) }, 'End all other sessions')
      this.paint(h('div', { class: 'stack', part: 'container' }, this.error, h('ul', { part: 'list', class: 'sessions' }, ...rows), endOthers))
    }
  }
}
