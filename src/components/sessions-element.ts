import type { AuthClient, SessionInfo } from '../client/index.js'
import { h } from './dom.js'
import { ListElement } from './list-element.js'

/**
 * `<latchkey-sessions>`: the signed-in user's sessions, one per device, each with an end button,
 * and one to end all the others. Ending another session needs a recent sign-in: the element then
 * says so and fires `latchkey-confirm-needed` (show `<latchkey-signin confirm>`). Empty when
 * signed out.
 */
export function sessionsElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeySessions extends ListElement<SessionInfo> {
    constructor() {
      super(client)
    }
    protected read() {
      return this.client.sessions.list()
    }
    protected override fail(e: unknown) {
      super.fail(e)
      if ((e as { code?: string }).code === 'SessionNotFresh') this.error.textContent = "Confirm it's you (sign in again), then end the session."
    }
    protected show() {
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
      return [h('ul', { part: 'list', class: 'sessions' }, ...rows), endOthers]
    }
  }
}
