import type { AuthClient } from '../client/index.js'
import { signInElement } from './signin-element.js'
import { userElement } from './user-element.js'
import { define, defineWhenUsed } from './define.js'

/**
 * Registers `<latchkey-signin>` and `<latchkey-user>`, and the elements of an account's settings
 * page, `<latchkey-profile>`, `<latchkey-sessions>`, `<latchkey-accounts>`, `<latchkey-mfa>`,
 * `<latchkey-passkeys>`, `<latchkey-password>`, `<latchkey-identity>`, `<latchkey-organization-switcher>` and
 * `<latchkey-organization>`, `<latchkey-sso-setup>` and `<latchkey-connected-apps>`, bound to `client`
 * (once per page). The settings page's elements load, and are defined, once the document has one,
 * so a sign-in page stays small (`lazy: false`: now, for an app that puts them only inside shadow
 * roots of its own).
 */
export function defineElements(client: AuthClient, { lazy = true } = {}): void {
  define('latchkey-signin', signInElement(client))
  define('latchkey-user', userElement(client))
  defineWhenUsed({
    'latchkey-sessions': () => import('./sessions-element.js').then((m) => m.sessionsElement(client)),
    'latchkey-accounts': () => import('./accounts-element.js').then((m) => m.accountsElement(client)),
    'latchkey-mfa': () => import('./mfa-element.js').then((m) => m.mfaElement(client)),
    'latchkey-passkeys': () => import('./passkeys-element.js').then((m) => m.passkeysElement(client)),
    'latchkey-password': () => import('./password-element.js').then((m) => m.passwordElement(client)),
    'latchkey-identity': () => import('./identity-element.js').then((m) => m.identityElement(client)),
    'latchkey-organization-switcher': () => import('./organization-switcher-element.js').then((m) => m.organizationSwitcherElement(client)),
    'latchkey-organization': () => import('./organization-element.js').then((m) => m.organizationElement(client)),
    'latchkey-sso-setup': () => import('./sso-setup-element.js').then((m) => m.ssoSetupElement(client)),
    'latchkey-connected-apps': () => import('./connected-apps-element.js').then((m) => m.connectedAppsElement(client)),
    'latchkey-profile': () => import('./profile-element.js').then((m) => m.profileElement(client)),
  }, lazy)
}
