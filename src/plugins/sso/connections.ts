/** The store, and what the routes and the flows share about a connection: its URLs and its view. */
import { useAdapter, type Context } from 'latchkey/server'
import type { ConnectionRecord, SsoStore } from './records.js'
import { storeMethods } from './store.js'
import type { Resolved } from './options.js'

export const store = (ctx: Context): SsoStore => useAdapter<SsoStore>(ctx.config, storeMethods, 'sso')

/** The organizations plugin's store methods sso calls (its records.ts), spelled here: a plugin imports no other plugin. */
interface Member {
  id: string
  organizationId: string
  userId: string
  role: string
  joinedAt: Date
}
interface OrganizationMethods {
  getOrganization(id: string): Promise<{ id: string; name: string } | null>
  getMember(organizationId: string, userId: string): Promise<Member | null>
  addMember(member: Member): Promise<{ member: Member; added: boolean } | null>
}

export const organizationsStore = (ctx: Context) => useAdapter<OrganizationMethods>(ctx.config, ['getMember', 'getOrganization', 'addMember'], 'sso')

/** The values the admin gives their IdP. Per connection: an assertion for one is never another's (its audience). */
export function serviceProvider(ctx: Context, options: Resolved, connection: Pick<ConnectionRecord, 'id'>) {
  return {
    entityId: `${ctx.baseUrl}/saml-metadata/${connection.id}`,
    acsUrl: `${ctx.baseUrl}/saml-acs/${connection.id}`,
    metadataUrl: `${ctx.baseUrl}/saml-metadata/${connection.id}`,
    redirectUri: `${ctx.baseUrl}/callback/${options.providerId}`,
  }
}

/** A connection as the admin sees it: never its secret, only whether it has one. */
export function view(ctx: Context, options: Resolved, c: ConnectionRecord) {
  const sp = serviceProvider(ctx, options, c)
  return {
    id: c.id,
    organizationId: c.organizationId,
    kind: c.kind,
    name: c.name,
    domains: c.domains,
    required: c.required,
    defaultRole: c.defaultRole,
    groupRoles: c.groupRoles,
    attributes: c.attributes,
    ...(c.oidc && { oidc: { issuer: c.oidc.issuer, clientId: c.oidc.clientId, scopes: c.oidc.scopes, hasClientSecret: c.sealedSecret !== null } }),
    ...(c.saml && {
      saml: { idpEntityId: c.saml.idpEntityId, ssoUrl: c.saml.ssoUrl, metadataUrl: c.saml.metadataUrl, idpInitiated: c.saml.idpInitiated, wantAssertionsSigned: c.saml.wantAssertionsSigned, certificates: c.saml.certificates.length },
    }),
    serviceProvider: c.kind === 'oidc' ? { redirectUri: sp.redirectUri } : { entityId: sp.entityId, acsUrl: sp.acsUrl, metadataUrl: sp.metadataUrl },
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  }
}

/** The domains of the connection its organization has verified (`domainOwner`). */
export async function verifiedDomains(ctx: Context, options: Resolved, c: ConnectionRecord): Promise<string[]> {
  const owners = await Promise.all(c.domains.map((d) => options.domainOwner(d, ctx)))
  return c.domains.filter((_, i) => owners[i] === c.organizationId)
}
