/** `connectedApps()`: the apps the signed-in user allowed to use their account (the server's oauth-server plugin: /connected-apps). */
import type { ClientPlugin } from '../plugin.js'

/** One app the user allowed, as GET /connected-apps lists it. */
export interface ConnectedApp {
  /** The app's OAuth `client_id`. */
  id: string
  name: string
  /** An https URL, or null. */
  logoUri: string | null
  /** What it may do: each scope with its words by language tag (`en` always there). */
  scopes: Array<{ scope: string; words: Record<string, string> }>
  /** ISO dates: when the user first allowed it; when it last got tokens (null: not yet). */
  grantedAt: string
  lastUsedAt: string | null
}

/** `client.connectedApps`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface ConnectedAppsClient {
  list(): Promise<ConnectedApp[]>
  revoke(id: string): Promise<ConnectedApp[]>
}

/** The plugin that adds `client.connectedApps`. */
export const connectedApps = (): ClientPlugin<'connectedApps', ConnectedAppsClient> => ({
  name: 'connectedApps',
  setup({ get, send }) {
    return {
      list: async () => (await get<{ apps: ConnectedApp[] }>('/connected-apps')).apps,
      revoke: async (id) => (await send<{ apps: ConnectedApp[] }>('/connected-apps', { action: 'revoke', id })).data.apps,
    }
  },
})

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.connectedApps`: the apps (OAuth clients: CLIs, MCP clients, other sites) the
     * signed-in user allowed to use their account. `revoke(id)` ends the app's access at once
     * (its refresh tokens, and its access tokens wherever the server checks them) and forgets
     * the consent; answers the apps left. A revoked or unknown id is `ConnectedAppNotFound`.
     */
    readonly connectedApps: ConnectedAppsClient
  }
}
