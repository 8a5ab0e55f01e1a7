/**
 * The sso way in `<latchkey-signin>` (the `sso()` client plugin's `'sso'` drawing): offered only
 * for an address whose domain has a connection (`WayIn.offers`, its discovery answer in
 * `host.offered`), as "Continue with {organization}'s sign-in", which sends the browser to the
 * organization's identity provider with the address as its login hint.
 */
import type { SsoDiscovery } from '../client/index.js'
import { h } from './dom.js'
import { form } from './own-ways.js'
import { need } from './plugins.js'
import type { SignInRenderer } from './sign-in-host.js'

export const ssoWay: SignInRenderer = (host, p) => {
  const connection = host.offered as SsoDiscovery['connection'] | undefined
  if (!connection || host.place === 'foot' || host.place === 'button') return null
  // The name isolated (FSI, PDI): a Latin name in Arabic words, or the reverse, keeps its order.
  const words = host.t('ssoContinue', { organization: `\u2068${connection.organization}\u2069` })
  if (host.place === 'choice') return h('button', { type: 'button', part: 'button choice', 'data-provider': p.id, onclick: () => host.choose() }, words)
  // Carried for a password manager to read, as the other ways' forms carry it.
  const address = h('input', { type: 'email', name: 'email', autocomplete: 'username', part: 'input', hidden: true, value: host.identifier })
  return form(host, 'sso-form', p, words, [address], (submit) =>
    host.run(submit, () => need(host.client, 'sso', 'latchkey-signin').signIn({ email: address.value, provider: p.id, callbackUrl: host.callbackUrl })))
}
