import type { AccountInfo, AppProvider, AuthClient } from '../client/index.js'
import { h } from './dom.js'
import { ListElement } from './list-element.js'
import { need } from './plugins.js'

/**
 * `<latchkey-accounts>`: the signed-in user's linked accounts (OAuth, OIDC and email; passkeys
 * have their own list), an unlink button on each OAuth/OIDC one, and a "Connect" button for each
 * configured OAuth/OIDC provider not linked yet: a sign-in with it, while signed in, that comes
 * back to `callback-url` (default: this page). Connecting and unlinking need a recent sign-in: the
 * element then asks for one (fresh.ts).
 * Unlinking the last way to sign in is refused by the server and said in words. Empty when signed out.
 */
export function accountsElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeyAccounts extends ListElement<AccountInfo> {
    private providers: AppProvider[] = []
    constructor() {
      super(client)
    }
    protected async read() {
      const plugin = need(this.client, 'accounts', 'latchkey-accounts')
      const [accounts, providers] = await Promise.all([plugin.list(), this.client.getProviders()])
      this.providers = Object.values(providers).filter((p) => plugin.kindOf(p) === 'linkable')
      return accounts.filter((a) => plugin.kindOf(a) !== 'passkey')
    }
    protected show() {
      const rows = this.list.map((a) => {
        const row = h('li', { part: 'account', 'data-provider': a.provider }, h('span', { part: 'name' }, a.name, a.email ? `: ${a.email}` : ''))
        if (need(this.client, 'accounts', 'latchkey-accounts').kindOf(a) === 'linkable') {
          const unlink: HTMLButtonElement = h('button', { type: 'button', part: 'button unlink', 'aria-label': this.t('unlinkName', { name: a.name }), onclick: () => this.act(unlink, () => need(this.client, 'accounts', 'latchkey-accounts').unlink(a.provider), this.t('whyUnlink', { name: a.name })) }, this.t('unlink'))
          row.append(unlink)
        }
        return row
      })
      const linked = new Set(this.list.map((a) => a.provider))
      const connect = this.providers.filter((p) => !linked.has(p.id)).map((p) => {
        const button: HTMLButtonElement = h('button', { type: 'button', part: 'button connect', 'data-provider': p.id, onclick: () => this.act(button, () => need(this.client, 'accounts', 'latchkey-accounts').link(p.id, { callbackUrl: this.getAttribute('callback-url') ?? location.href }), this.t('whyConnect', { name: p.name })) }, this.t('connect', { name: p.name }))
        return button
      })
      return [h('ul', { part: 'list', class: 'accounts' }, ...rows), ...connect]
    }
  }
}
