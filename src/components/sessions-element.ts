import type { AuthClient, SessionInfo } from '../client/index.js'
import { ago, when } from './dates.js'
import { h, isolate } from './dom.js'
import { ListElement } from './list-element.js'
import { need } from './plugins.js'

/**
 * `<latchkey-sessions>`: the signed-in user's sessions, one per device, each with an end button,
 * and one to end all the others. Ending another session needs a recent sign-in: the element then
 * asks for one (fresh.ts). Empty when signed out.
 */
export function sessionsElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeySessions extends ListElement<SessionInfo> {
    constructor() {
      super(client)
    }
    protected read() {
      return need(this.client, 'sessions', 'latchkey-sessions').list()
    }
    protected show() {
      const { lang } = this.words
      const unknown = this.t('unknownTime')
      const rows = this.list.map((s) => {
        const end: HTMLButtonElement = h('button', { type: 'button', part: 'button end', onclick: () => this.act(end, () => need(this.client, 'sessions', 'latchkey-sessions').revoke(s.id), this.t('whyEndSession')) }, this.t(s.current ? 'signOutHere' : 'end'))
        return h('li', { part: 'session', 'data-current': s.current },
          h('span', { part: 'device' }, s.current ? this.t('thisDevice', { device: isolate(s.device) }) : s.device),
          h('span', { part: 'when' }, this.t('sessionTimes', { created: s.createdAt ? when(lang, s.createdAt) : unknown, seen: s.lastSeenAt ? ago(lang, s.lastSeenAt) : unknown })),
          end,
        )
      })
      const others = this.list.filter((s) => !s.current).length
      const endOthers: HTMLButtonElement = h('button', { type: 'button', part: 'button end-others', hidden: !others, onclick: () => this.act(endOthers, () => need(this.client, 'sessions', 'latchkey-sessions').revokeOthers(), this.t('whyEndOthers')) }, this.t('endOthers'))
      return [h('ul', { part: 'list', class: 'sessions' }, ...rows), endOthers]
    }
  }
}
