/** `scimTokens()`: an organization's SCIM bearer tokens, for a role holding `scim:manage` (the server's scim plugin: /scim-tokens/:organizationId). */
import type { ClientPlugin } from '../plugin.js'

/** A token as listed: never its secret or hash. */
export interface ScimToken {
  id: string
  name: string
  /** The user who made it; null once that user is gone. */
  createdBy: string | null
  /** ISO date. */
  createdAt: string
}

/** `client.scimTokens`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface ScimTokensClient {
  list(organizationId: string): Promise<{ tokens: ScimToken[]; endpoint: string }>
  create(organizationId: string, name: string): Promise<ScimToken & { token: string; endpoint: string }>
  revoke(organizationId: string, tokenId: string): Promise<{ revoked: string }>
}

/** The plugin that adds `client.scimTokens`. */
export const scimTokens = (): ClientPlugin<'scimTokens', ScimTokensClient> => ({
  name: 'scimTokens',
  setup({ get, send }) {
    const path = (id: string) => `/scim-tokens/${encodeURIComponent(id)}`
    return {
      list: (id) => get(path(id)),
      create: async (id, name) => (await send<ScimToken & { token: string; endpoint: string }>(path(id), { action: 'create', name })).data,
      revoke: async (id, tokenId) => (await send<{ revoked: string }>(path(id), { action: 'revoke', id: tokenId })).data,
    }
  },
})

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.scimTokens`: an organization's SCIM tokens (the server's scim plugin), for a role
     * holding `scim:manage`. `list(orgId)` answers `{ tokens, endpoint }` (no secrets);
     * `create(orgId, name)` needs a recent sign-in (`SessionNotFresh`) and answers the token
     * this once, with the `endpoint` to give the IdP; `revoke(orgId, id)` ends it at once
     * (`ScimTokenNotFound` for an unknown one).
     */
    readonly scimTokens: ScimTokensClient
  }
}
