import type { OrganizationDetails } from '../client/index.js'
import { OrganizationsList } from './organizations-list.js'
import { need } from './plugins.js'

/** The sign-in test `<latchkey-sso-setup>` started, kept across the trip to the IdP and back (this tab only). */
export const ssoTestKey = 'latchkey-sso-test'

/** The organization whose connection a sign-in test went through, if one is under way. */
function testedIn(): { organizationId?: string } | undefined {
  try {
    return (JSON.parse(sessionStorage.getItem(ssoTestKey) ?? 'null') as { organizationId?: string } | null) ?? undefined
  } catch {
    return undefined
  }
}

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
    // Back from a sign-in test: the new session has no active organization; the tested one is made
    // active again, so its result shows where the test began.
    const held = this.getAttribute('organization-id') ? undefined : testedIn()
    const tested = held?.organizationId
    if (tested && this.client.session?.user && this.client.session.organization?.id !== tested) {
      try {
        await this.orgs.switch(tested)
        // Once: a later switch elsewhere is not undone.
        sessionStorage.setItem(ssoTestKey, JSON.stringify({ ...held, organizationId: undefined }))
        return [await this.orgs.get(tested)]
      } catch {
        // Signed in as someone not of it: the test's result has nowhere to show.
        sessionStorage.removeItem(ssoTestKey)
      }
    }
    const id = this.shownId
    return id ? [await this.orgs.get(id)] : []
  }
}
