import type { OrganizationDetails } from '../client/index.js'
import { OrganizationsList } from './organizations-list.js'
import { need } from './plugins.js'

/**
 * What `<latchkey-organization>` and `<latchkey-sso-setup>` share: one organization, the one
 * `organization-id` names or the session's active one, read anew when either changes.
 */
export abstract class ShownOrganization extends OrganizationsList<OrganizationDetails> {
  static override observedAttributes = ['lang', 'organization-id']
  /** The element's tag, for the missing-plugin advice. */
  protected abstract readonly tag: string
  protected get orgs() {
    return need(this.client, 'organizations', this.tag)
  }
  protected get shownId(): string | undefined {
    return this.getAttribute('organization-id') || this.client.session?.organization?.id
  }
  protected get details(): OrganizationDetails | undefined {
    return this.list[0]
  }
  override attributeChangedCallback(name?: string) {
    super.attributeChangedCallback()
    if (name === 'organization-id' && this.isConnected && this.client.session?.user) this.readAgain()
  }
  protected async read(): Promise<OrganizationDetails[]> {
    const id = this.shownId
    return id ? [await this.orgs.get(id)] : []
  }
}
