/**
 * `ssoConnections()`: an organization's enterprise sign-in connections, for a member whose role
 * holds `sso:manage` (the server's sso plugin: /sso-connections/:organization).
 */
import type { ClientPlugin } from '../plugin.js'

/** The values the admin gives their identity provider: the redirect URI (OIDC), or the entity id, ACS URL and metadata URL (SAML). */
export interface SsoServiceProvider {
  redirectUri?: string
  entityId?: string
  acsUrl?: string
  metadataUrl?: string
}

/** A connection as the server shows it to an admin: never its secret (`oidc.hasClientSecret` says whether it has one). */
export interface SsoConnection {
  id: string
  organizationId: string
  kind: 'oidc' | 'saml'
  name: string
  domains: string[]
  required: boolean
  defaultRole: string
  groupRoles: Record<string, string>
  attributes: { email: string; name: string; groups: string }
  oidc?: { issuer: string; clientId: string; scopes: string; hasClientSecret: boolean }
  saml?: { idpEntityId: string; ssoUrl: string; metadataUrl: string | null; idpInitiated: boolean; wantAssertionsSigned: boolean; certificates: number }
  serviceProvider: SsoServiceProvider
  /** ISO dates. */
  createdAt: string
  updatedAt: string
}

/** What a connection is made or changed with (docs/sso.md, "Connections"). */
export interface SsoConnectionFields {
  name?: string
  /** A list, or text separated by commas or spaces. */
  domains?: string[] | string
  required?: boolean
  defaultRole?: string
  groupRoles?: Record<string, string>
  attributes?: Partial<SsoConnection['attributes']>
  /** OIDC. `clientSecret: ''` on an update removes it (a public client with PKCE). */
  issuer?: string
  clientId?: string
  clientSecret?: string
  scopes?: string
  /** SAML: the IdP's metadata pasted, or its https URL; or the three values typed in. */
  metadataXml?: string
  metadataUrl?: string
  idpEntityId?: string
  ssoUrl?: string
  certificate?: string
  idpInitiated?: boolean
  wantAssertionsSigned?: boolean
}

/** `client.ssoConnections`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface SsoConnectionsClient {
  list(organizationId: string): Promise<SsoConnection[]>
  create(organizationId: string, connection: SsoConnectionFields & { kind: 'oidc' | 'saml'; name: string }): Promise<SsoConnection>
  update(organizationId: string, connectionId: string, change: SsoConnectionFields): Promise<SsoConnection>
  remove(organizationId: string, connectionId: string): Promise<{ deleted: string }>
  test(organizationId: string, connectionId: string): Promise<{ ok: boolean; message: string }>
}

/** The plugin that adds `client.ssoConnections`. */
export const ssoConnections = (): ClientPlugin<'ssoConnections', SsoConnectionsClient> => ({
  name: 'ssoConnections',
  setup({ get, send }) {
    const path = (id: string) => `/sso-connections/${encodeURIComponent(id)}`
    // JSON: domains, group roles and attributes are lists and objects.
    const act = async <T>(id: string, action: string, fields: object): Promise<T> => (await send<T>(path(id), { action, ...fields } as Record<string, string>, true)).data
    return {
      list: async (id) => (await get<{ connections: SsoConnection[] }>(path(id))).connections,
      create: (id, connection) => act(id, 'create', connection),
      update: (id, connectionId, change) => act(id, 'update', { ...change, id: connectionId }),
      remove: (id, connectionId) => act(id, 'delete', { id: connectionId }),
      test: (id, connectionId) => act(id, 'test', { id: connectionId }),
    }
  },
})

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.ssoConnections`: an organization's enterprise sign-in connections (the server's sso
     * plugin), for a role holding `sso:manage`. `list(orgId)` answers them, each with the values
     * to give the IdP (`serviceProvider`) and never a secret; `create(orgId, { kind, name, ... })`,
     * `update(orgId, id, change)` and `remove(orgId, id)` need a recent sign-in
     * (`SessionNotFresh`); `test(orgId, id)` reaches the IdP as a sign-in would and answers
     * `{ ok, message }`. Another organization, or none of the user's, is `OrganizationNotFound`;
     * a role without the permission `OrganizationForbidden`; an unknown connection `SsoConnectionNotFound`.
     */
    readonly ssoConnections: SsoConnectionsClient
  }
}
