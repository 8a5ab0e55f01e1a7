import { organizationsChanged } from './organization-roles.js'
import { SettingsList } from './settings-list.js'

/**
 * What `<latchkey-organization-switcher>` and `<latchkey-organization>` add to a settings list:
 * while connected and signed in, they read their organizations anew when another element changed them.
 */
export abstract class OrganizationsList<T> extends SettingsList<T> {
  private watch?: AbortController
  override connectedCallback() {
    super.connectedCallback()
    this.watch = new AbortController()
    document.addEventListener(organizationsChanged, (e) => (e as CustomEvent).detail !== this && this.client.session?.user && this.readAgain(), { signal: this.watch.signal })
  }
  override disconnectedCallback() {
    super.disconnectedCallback()
    this.watch?.abort()
  }
}
