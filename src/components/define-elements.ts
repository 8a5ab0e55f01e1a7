import type { AuthClient } from '../client/index.js'
import { signInElement } from './signin-element.js'
import { userElement } from './user-element.js'
import { sessionsElement } from './sessions-element.js'
import { accountsElement } from './accounts-element.js'

/**
 * Registers `<latchkey-signin>`, `<latchkey-user>`, `<latchkey-sessions>`, `<latchkey-accounts>`
 * and `<latchkey-mfa>` bound to `client` (once per page). `<latchkey-mfa>` belongs on an account's
 * settings page: its code loads, and the element is defined, once the document has one (`lazy:
 * false`: now, for an app that puts it only inside shadow roots of its own).
 */
export function defineElements(client: AuthClient, { lazy = true } = {}): void {
  define('latchkey-signin', signInElement(client))
  define('latchkey-user', userElement(client))
  define('latchkey-sessions', sessionsElement(client))
  define('latchkey-accounts', accountsElement(client))
  defineWhenUsed('latchkey-mfa', () => import('./mfa-element.js').then((m) => m.mfaElement(client)), lazy)
}

function define(name: string, element: CustomElementConstructor): void {
  if (!customElements.get(name)) customElements.define(name, element)
}

/**
 * Defines `name` once an element of that name is in the document (the ones there before upgrade
 * then); `lazy` false: now. It looks in the document, not inside shadow roots.
 */
function defineWhenUsed(name: string, load: () => Promise<CustomElementConstructor>, lazy: boolean): void {
  if (customElements.get(name)) return
  const look = () => {
    if (lazy && !document.querySelector(name)) return
    watch.disconnect()
    load().then((element) => define(name, element))
  }
  const watch = new MutationObserver(look)
  watch.observe(document, { childList: true, subtree: true })
  look()
}
