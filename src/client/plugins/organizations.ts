/**
 * `organizations()`: the signed-in user's organizations, their members, roles and invitations,
 * and the session's active organization (the server's organizations plugin: /organizations).
 */
import type { ClientKernel, ClientPlugin } from '../plugin.js'

/** One of the user's organizations, with their role in it. */
export interface OrganizationInfo {
  id: string
  name: string
  /** Lowercase letters, digits and "-": unique among organizations. */
  slug: string
  /** An https URL, or null. */
  logo: string | null
  role: string
}

/** A member as GET /organizations/:id lists them. */
export interface OrganizationMember {
  userId: string
  name: string | null
  email: string | null
  image: string | null
  role: string
  /** ISO date. */
  joinedAt: string
}

/** A pending invitation (listed for a role that may invite). */
export interface OrganizationInvitation {
  id: string
  /** Lowercase. */
  email: string
  role: string
  /** The user who sent it; null once that user is gone. */
  invitedBy: string | null
  /** ISO dates. */
  expires: string
  createdAt: string
  /** Listed, but its link no longer works. */
  expired?: boolean
}

/** A role the server knows (built in, or the app's), with its permissions (`resource:action`). */
export interface OrganizationRole {
  name: string
  permissions: string[]
}

/** One organization, as a member sees it. `invitations` only where the caller's role may invite. */
export interface OrganizationDetails extends OrganizationInfo {
  members: OrganizationMember[]
  invitations?: OrganizationInvitation[]
  roles: OrganizationRole[]
}

/** A domain of an organization (verified domains): its users may join once it is verified. */
export interface OrganizationDomain {
  id: string
  /** Lowercase ASCII (an internationalized name in its punycode form). */
  domain: string
  /** The role a user joining by the domain gets. */
  role: string
  autoJoin: boolean
  verified: boolean
  /** ISO dates. */
  verifiedAt: string | null
  createdAt: string
  /** The TXT record to publish: in the answer of `addDomain` only, while pending. */
  record?: { name: string; type: 'TXT'; value: string }
}

/** An organization the user's verified address lets them join, with the role they would get. */
export interface JoinableOrganization extends OrganizationInfo {
  domain: string
}

/** `client.organizations`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface OrganizationsClient {
  list(): Promise<{ organizations: OrganizationInfo[]; active: string | null }>
  create(organization: { name: string; slug?: string; logo?: string }): Promise<OrganizationInfo>
  switch(organizationId: string | null): Promise<{ active: string | null }>
  get(organizationId: string): Promise<OrganizationDetails>
  update(organizationId: string, change: { name?: string; slug?: string; logo?: string | null }): Promise<OrganizationInfo>
  remove(organizationId: string): Promise<{ deleted: string }>
  leave(organizationId: string): Promise<{ left: string }>
  setRole(organizationId: string, userId: string, role: string): Promise<{ userId: string; role: string }>
  removeMember(organizationId: string, userId: string): Promise<{ removed: string }>
  invite(organizationId: string, invitation: { email: string; role: string; callbackUrl?: string }): Promise<OrganizationInvitation>
  revokeInvitation(organizationId: string, invitationId: string): Promise<{ revoked: string }>
  accept(tokenOrLink: string): Promise<OrganizationInfo>
  domains(organizationId: string): Promise<OrganizationDomain[]>
  addDomain(organizationId: string, domain: { domain: string; role?: string; autoJoin?: boolean }): Promise<OrganizationDomain>
  verifyDomain(organizationId: string, domainId: string): Promise<OrganizationDomain>
  updateDomain(organizationId: string, domainId: string, change: { role?: string; autoJoin?: boolean }): Promise<OrganizationDomain>
  removeDomain(organizationId: string, domainId: string): Promise<{ removed: string }>
  joinable(): Promise<JoinableOrganization[]>
  join(organizationId: string): Promise<OrganizationInfo>
}

/** The token of an invitation, given as itself or as the emailed link (`…/organizations/invitation?token=`). */
export function invitationToken(tokenOrLink: string): string {
  if (!/^https?:\/\//i.test(tokenOrLink)) return tokenOrLink
  return new URL(tokenOrLink).searchParams.get('token') ?? ''
}

/** The plugin's POSTs: JSON (a switch to none sends null), then every tab learns what changed in the session. */
function poster({ send, settle }: ClientKernel) {
  return async <T>(path: string, fields: Record<string, unknown>, changesSession = true): Promise<T> => {
    const { data, response } = await send<T>(path, fields as Record<string, string>, true)
    // The answer carries the session-change header where the session changed: the worker (or the page's engine) reads it anew and tells every tab.
    if (changesSession) await settle(path, response)
    return data
  }
}

/** The plugin that adds `client.organizations`. */
export const organizations = (): ClientPlugin<'organizations', OrganizationsClient> => ({
  name: 'organizations',
  setup(kernel) {
    const post = poster(kernel)
    const one = (id: string) => `/organizations/${encodeURIComponent(id)}`
    const act = <T>(id: string, action: string, fields: Record<string, unknown> = {}, changesSession = true) => post<T>(one(id), { action, ...fields }, changesSession)
    const domainsOf = (id: string) => `/organization-domains/${encodeURIComponent(id)}`
    const domainAct = <T>(id: string, action: string, fields: Record<string, unknown>) => post<T>(domainsOf(id), { action, ...fields }, false)
    return {
      list: () => kernel.get('/organizations'),
      create: (organization) => post('/organizations', { action: 'create', ...organization }),
      switch: (organizationId) => post('/organizations', { action: 'switch', organizationId }),
      get: (id) => kernel.get(one(id)),
      update: (id, change) => act(id, 'update', change),
      remove: (id) => act(id, 'delete'),
      leave: (id) => act(id, 'leave'),
      setRole: (id, userId, role) => act(id, 'set-role', { userId, role }),
      removeMember: (id, userId) => act(id, 'remove-member', { userId }),
      invite: (id, { email, role, callbackUrl = globalThis.location?.href }) => act(id, 'invite', { email, role, ...(callbackUrl && { callbackUrl }) }, false),
      revokeInvitation: (id, invitationId) => act(id, 'revoke-invitation', { invitationId }, false),
      accept: async (tokenOrLink) =>
        (await post<{ organization: OrganizationInfo }>('/organizations/invitation', { action: 'accept', token: invitationToken(tokenOrLink) })).organization,
      domains: async (id) => (await kernel.get<{ domains: OrganizationDomain[] }>(domainsOf(id))).domains,
      addDomain: (id, domain) => domainAct(id, 'add', domain),
      verifyDomain: (id, domainId) => domainAct(id, 'verify', { domainId }),
      updateDomain: (id, domainId, change) => domainAct(id, 'update', { domainId, ...change }),
      removeDomain: (id, domainId) => domainAct(id, 'remove', { domainId }),
      joinable: async () => (await kernel.get<{ organizations: JoinableOrganization[] }>('/organizations/joinable')).organizations,
      join: async (organizationId) => (await post<{ organization: OrganizationInfo }>('/organizations', { action: 'join', organizationId })).organization,
    }
  },
})

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.organizations`: the signed-in user's organizations (the server's organizations
     * plugin). `list()` answers them with the user's role in each, and the session's `active` one;
     * `create({ name, slug?, logo? })` makes one (the user its owner) and makes it active;
     * `switch(id)` (null: none) changes the session's active organization, shown in every tab at
     * once as `session.organization: { id, slug, role }`. `get(id)` has its members, its roles
     * and, for a role that may invite, its pending invitations. `update`, `setRole`,
     * `removeMember`, `invite({ email, role })` and `revokeInvitation` need the role's permission
     * (`OrganizationForbidden`, and nobody grants a role above their own); `remove(id)` (owner
     * only) and making or unmaking an owner need a recent sign-in (`SessionNotFresh`). The last
     * owner can neither leave nor be removed or demoted (`LastOwner`); a slug in use is
     * `SlugTaken`; an organization the user is not in is `OrganizationNotFound`, as one that does
     * not exist. `accept(token or link)` joins with an invitation, signed in with the invited,
     * verified address (`InvitationInvalid` otherwise), and makes it active.
     * Verified domains (`domain:manage`, the owner's): `domains(id)`, `addDomain(id, { domain,
     * role?, autoJoin? })` (its answer has the TXT `record` to publish), `verifyDomain`,
     * `updateDomain`, `removeDomain`; `DomainInvalid`, `DomainNotVerified`, `DomainTaken`,
     * `DomainNotFound`. `joinable()` lists the organizations the user's verified address's domain
     * lets them join; `join(id)` joins one with the domain's role and makes it active.
     */
    readonly organizations: OrganizationsClient
  }
}
