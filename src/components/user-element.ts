import type { AuthClient } from '../client/index.js'
import { LatchkeyElement } from './base-element.js'
import { h, refocus } from './dom.js'

/** `<latchkey-user>`: who is signed in, and a sign-out button. Empty when signed out. */
export function userElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeyUser extends LatchkeyElement {
    /** The last known status: a sign-in in this tab hands the focus, left nowhere, to the sign-out. */
    private seen?: string
    constructor() {
      super(client)
    }
    protected render() {
      const session = this.client.session
      const user = session?.user
      const signedIn = this.seen === 'unauthenticated' && !!user
      if (this.client.status !== 'loading') this.seen = this.client.status
      if (!user) return this.paint(h('slot', { name: 'signed-out' }))
      const label = user.name || user.email || this.t('signedIn')
      const signOut = h('button', {
        type: 'button',
        part: 'button signout',
        onclick: async () => {
          signOut.disabled = true
          try {
            await this.client.signOut({ redirect: this.hasAttribute('redirect'), callbackUrl: this.getAttribute('callback-url') ?? undefined })
          } finally {
            signOut.disabled = false
          }
        },
      }, this.getAttribute('signout-label') ?? this.t('signOut'))
      this.paint(
        h('div', { class: 'user', part: 'container', role: 'group', 'aria-label': this.t('signedInUser') },
          user.image && h('img', { class: 'avatar', part: 'avatar', src: user.image, alt: '' }),
          h('span', { part: 'name' }, label),
          user.email && user.name && h('span', { part: 'email' }, user.email),
          session.stale && h('span', { part: 'stale', title: this.t('offlineTitle') }, this.t('offline')),
          signOut,
        ),
      )
      if (signedIn) refocus(() => signOut)
    }
  }
}
