import type { AuthClient, ConnectedApp } from '../client/index.js'
import { ago, when } from './dates.js'
import { h, isolate, keep } from './dom.js'
import { need } from './plugins.js'
import { SettingsList } from './settings-list.js'

/** A scope's words in `lang`: the language's, its base language's, else English. */
const scopeWords = (words: Record<string, string>, lang: string, scope: string) => words[lang] ?? words[lang.split('-')[0]!] ?? words.en ?? scope

/**
 * `<latchkey-connected-apps>`: the apps the signed-in user allowed to use their account (the
 * server's oauth-server plugin; the connectedApps client plugin). Each shows its logo, name, what
 * it may do, when it was allowed and last used, and "Revoke access", asked again in its row
 * (Escape or Cancel goes back); revoking ends the app's access at once. A status line says what
 * went through. Empty when signed out.
 */
export function connectedAppsElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeyConnectedApps extends SettingsList<ConnectedApp> {
    /** The app whose revocation is asked, in its row. */
    private asking?: string
    /** Each row as drawn, kept while what it shows is the same (its buttons keep the focus). */
    private rows = new Map<string, { shown: string; li: HTMLLIElement }>()
    private listed = h('ul', { part: 'list', class: 'apps' })
    private empty = h('p', { part: 'empty', class: 'muted' })
    private questions = 0
    constructor() {
      super(client)
      this.said.tabIndex = -1
    }
    private get apps() {
      return need(this.client, 'connectedApps', 'latchkey-connected-apps')
    }
    protected read() {
      return this.apps.list()
    }
    /** Opens or closes the question in `id`'s row; the focus goes to its first button, or back to Revoke. */
    private ask(id: string | undefined) {
      const was = this.asking
      this.asking = id
      this.error.hidden = true
      if (id !== undefined) this.said.textContent = ''
      this.render()
      const li = this.rows.get(id ?? was ?? '')?.li
      li?.querySelector<HTMLElement>(id ? '[part~="revoke-confirm"]' : '[part~="revoke"]')?.focus()
    }
    private when(app: ConnectedApp): string {
      const { lang } = this.words
      const allowed = this.p('appAllowed', { date: when(lang, app.grantedAt) })
      return `${allowed} · ${app.lastUsedAt ? this.p('appLastUsed', { ago: ago(lang, app.lastUsedAt) }) : this.p('appNotUsed')}`
    }
    private row(app: ConnectedApp): HTMLLIElement {
      const { lang } = this.words
      const scopes = h('ul', { part: 'scopes', 'aria-label': this.p('appScopes', { name: isolate(app.name) }) }, ...app.scopes.map((s) => h('li', {}, scopeWords(s.words, lang, s.scope))))
      const li = h('li', { part: 'app', 'data-id': app.id },
        ...(app.logoUri ? [h('img', { part: 'logo', src: app.logoUri, alt: '', width: 24, height: 24, referrerPolicy: 'no-referrer' })] : []),
        h('div', { class: 'what' }, h('span', { part: 'name' }, h('bdi', {}, app.name)), scopes, h('span', { part: 'detail' }, this.when(app))),
      )
      if (this.asking === app.id) li.append(this.revokeAsk(app))
      else li.append(h('button', { type: 'button', part: 'button revoke', 'aria-label': this.p('revokeAppName', { name: isolate(app.name) }), onclick: () => this.ask(app.id) }, this.p('revokeApp')))
      return li
    }
    private revokeAsk(app: ConnectedApp): HTMLElement {
      const question = h('p', { part: 'message', id: `ask-${++this.questions}` }, this.p('revokeAppAsk', { name: isolate(app.name) }))
      const yes: HTMLButtonElement = h('button', {
        type: 'button', part: 'button danger revoke-confirm', 'aria-describedby': question.id,
        onclick: async () => {
          const done = await this.act(yes, async () => {
            const left = await this.apps.revoke(app.id)
            this.asking = undefined
            this.said.textContent = this.p('appRevoked', { name: isolate(app.name) })
            return left
          })
          // The row is gone: with no other app's button to stand in, the status line takes the focus.
          if (done && !this.list.length) this.said.focus()
        },
      }, this.p('revokeApp'))
      return h('div', { class: 'ask stack', part: 'revoke-ask', role: 'group', 'aria-label': this.p('revokeAppName', { name: isolate(app.name) }), onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && this.ask(undefined) },
        question,
        h('div', { class: 'row' }, yes, h('button', { type: 'button', part: 'button cancel', onclick: () => this.ask(undefined) }, this.t('cancel'))),
      )
    }
    protected show() {
      const { lang } = this.words
      const lis = this.list.map((app) => {
        const shown = JSON.stringify([app, this.asking === app.id, lang])
        let row = this.rows.get(app.id)
        if (row?.shown !== shown) this.rows.set(app.id, (row = { shown, li: this.row(app) }))
        return row.li
      })
      for (const id of this.rows.keys()) if (!this.list.some((a) => a.id === id)) this.rows.delete(id)
      keep(this.listed, lis)
      this.listed.setAttribute('aria-label', this.p('connectedAppsHeading'))
      this.listed.hidden = !lis.length
      this.empty.textContent = this.p('noConnectedApps')
      this.empty.hidden = !!lis.length
      return [this.listed, this.empty, this.said]
    }
  }
}
