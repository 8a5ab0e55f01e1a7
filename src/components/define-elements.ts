import type { AuthClient } from '../client/index.js'
import { signInElement } from './signin-element.js'
import { userElement } from './user-element.js'
import { sessionsElement } from './sessions-element.js'
import { accountsElement } from './accounts-element.js'
import { mfaElement } from './mfa-element.js'

/** Registers `<latchkey-signin>`, `<latchkey-user>`, `<latchkey-sessions>`, `<latchkey-accounts>` and `<latchkey-mfa>` bound to `client` (once per page). */
export function defineElements(client: AuthClient): void {
  if (!customElements.get('latchkey-signin')) customElements.define('latchkey-signin', signInElement(client))
  if (!customElements.get('latchkey-user')) customElements.define('latchkey-user', userElement(client))
  if (!customElements.get('latchkey-sessions')) customElements.define('latchkey-sessions', sessionsElement(client))
  if (!customElements.get('latchkey-accounts')) customElements.define('latchkey-accounts', accountsElement(client))
  if (!customElements.get('latchkey-mfa')) customElements.define('latchkey-mfa', mfaElement(client))
}
