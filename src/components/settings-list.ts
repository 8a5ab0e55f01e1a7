import { h } from './dom.js'
import { ListElement } from './list-element.js'
import { sayProfile, type ProfileKey } from './profile-words.js'
import { settingsStyles } from './profile-styles.js'

/**
 * What `<latchkey-passkeys>` and `<latchkey-password>` add to a list element: the account settings
 * elements' styles, and a status line that says what went through.
 */
export abstract class SettingsList<T> extends ListElement<T> {
  protected override ownStyles = settingsStyles
  protected said = h('p', { part: 'message', role: 'status' })
  /** `key`'s message of the settings elements' catalogue, in this element's language. */
  protected p = (key: ProfileKey, values?: Record<string, unknown>) => sayProfile(this.words, key, values)
  /** The words for a failure: no code of the shared catalogue says "That did not work" for an action here. */
  protected override say(e: unknown): string {
    const words = super.say(e)
    return words === this.t('unknownError') ? this.p('actionFailed') : words
  }
}
