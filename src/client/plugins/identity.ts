/** `identity()`: the signed-in user's name, image and email address (the server's /identity). */
import type { ClientPlugin } from '../plugin.js'
import type { IdentityInfo } from '../types.js'

/** `client.identity`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface IdentityClient {
  get(): Promise<IdentityInfo>
  update(change: { name?: string | null; image?: string | null }): Promise<IdentityInfo>
  changeEmail(email: string, options?: { callbackUrl?: string }): Promise<void>
}

/** The plugin that adds `client.identity`. */
export const identity = (): ClientPlugin<'identity', IdentityClient> => ({
  name: 'identity',
  setup({ get, send, settle }) {
    return {
      get: () => get<IdentityInfo>('/identity'),
      async update(change) {
        // JSON: null clears a field, which a form cannot say.
        const { data, response } = await send<IdentityInfo>('/identity', { action: 'update', ...change } as Record<string, string>, true)
        // A JWT session carries the name and image: every tab reads the session anew.
        await settle('/identity', response)
        return data
      },
      async changeEmail(email, { callbackUrl = globalThis.location?.href } = {}) {
        await send('/identity', { action: 'change-email', email, ...(callbackUrl && { callbackUrl }) })
      },
    }
  },
})

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.identity`: the signed-in user's name, image and address. `update({ name, image })`
     * stores either (a string, or null to clear it: a name of 1 to 100 characters, an https image
     * URL), refused with `InvalidRequest`; the session shows it at once, in every tab.
     * `changeEmail(email)` needs a recent sign-in (`SessionNotFresh`) and sends a link to the new
     * address (and a notice to the old one); the address changes once the link is opened, signed
     * in as this user. It answers the same whoever has the address: one taken by another account
     * gets no link. `callbackUrl` (default: this page) is where the link's page leads back to.
     * `get().emailChange` says whether the server can send that link.
     */
    readonly identity: IdentityClient
  }
}
