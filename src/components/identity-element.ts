import type { AuthClient } from '../client/index.js'
import { LatchkeyElement } from './base-element.js'
import { h } from './dom.js'
import { profileWordsFor, sayProfile } from './profile-words.js'
import { settingsStyles } from './profile-styles.js'

/** Up to two letters for an avatar without an image: of the name's first two words, else of the address. */
const initials = (name: string) => name.trim().split(/[\s@._-]+/).filter(Boolean).slice(0, 2).map((word) => [...word][0]!.toUpperCase()).join('')

/**
 * `<latchkey-identity>`: the signed-in user's image (or their initials), name and email address,
 * from the session. Shown, not edited: the server has no route that changes them (an app that
 * lets its users change them calls its own API, then `client.update()`). Empty when signed out.
 */
export function identityElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeyIdentity extends LatchkeyElement {
    protected override ownStyles = settingsStyles
    constructor() {
      super(client)
    }
    protected override wordsFor(tag: string) {
      return profileWordsFor(this.client, tag)
    }
    protected render() {
      const user = this.client.session?.user
      if (!user) return this.paint(h('slot', { name: 'signed-out' }))
      const mark = () => h('span', { class: 'avatar initials', part: 'avatar initials', 'aria-hidden': 'true' }, initials(user.name || user.email || '?'))
      // Decorative: the name beside it says whose it is. An image that does not load gives way to the initials.
      const avatar = user.image ? h('img', { class: 'avatar', part: 'avatar', src: user.image, alt: '', onerror: () => avatar.replaceWith(mark()) }) : mark()
      this.paint(h('div', { class: 'identity', part: 'container' },
        avatar,
        h('dl', { part: 'details' },
          // <bdi>: a name or address in another script keeps its own direction, in its place.
          h('dt', { part: 'label' }, sayProfile(this.words, 'nameLabel')), h('dd', { part: 'value name' }, user.name ? h('bdi', {}, user.name) : sayProfile(this.words, 'noName')),
          h('dt', { part: 'label' }, this.t('email')), h('dd', { part: 'value email' }, h('bdi', {}, user.email ?? '')),
        ),
      ))
    }
  }
}
