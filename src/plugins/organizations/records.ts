/** The organizations plugin's records, as its store methods (store.ts) take and answer them. */

export interface OrganizationRecord {
  id: string
  name: string
  /** Lowercase letters, digits and "-": unique among organizations. */
  slug: string
  logo: string | null
  createdAt: Date
}

export interface MemberRecord {
  /** The membership's own id: a member removed and invited again is a new membership. */
  id: string
  organizationId: string
  userId: string
  role: string
  joinedAt: Date
}

/** A member as listed, with the user's public fields where the store joined them. */
export interface ListedMember extends MemberRecord {
  name?: string | null
  email?: string | null
  image?: string | null
}

export interface InvitationRecord {
  id: string
  organizationId: string
  /** Lowercase. */
  email: string
  role: string
  /** The user who sent it; null once that user is gone. */
  invitedBy: string | null
  expires: Date
  createdAt: Date
}

/** What the session read carries of the active organization: live, from the membership. */
export interface ActiveOrganization {
  id: string
  slug: string
  role: string
}

/** A domain an organization claims, and once verified (by DNS) owns: its users may join. */
export interface DomainRecord {
  id: string
  organizationId: string
  /** Lowercase ASCII (punycode), no trailing dot: domain-name.ts. */
  domain: string
  /** The role a user joining by the domain gets: never above admin. */
  role: string
  /** Users signing in with a verified address of the domain become members at once. */
  autoJoin: boolean
  /** Null while pending. Verified by one organization at most. */
  verifiedAt: Date | null
  createdAt: Date
}

/** A verified domain with its organization, as a lookup by domain answers. */
export type VerifiedDomain = DomainRecord & { organization: OrganizationRecord }

/** How a change to a member ended: done, the member is not one, or it would leave no owner. */
export type MemberChange = 'done' | 'missing' | 'last-owner'

/** The methods the plugin's schema adds to an adapter made with it. */
export interface OrganizationStore {
  /** The organization and its first member (the owner) at once; null when the slug is taken. */
  createOrganization(organization: Omit<OrganizationRecord, 'createdAt'> & { createdAt: Date }, owner: MemberRecord): Promise<OrganizationRecord | null>
  getOrganization(id: string): Promise<OrganizationRecord | null>
  /** Null when there is no such organization; 'slug-taken' when another has the slug. */
  updateOrganization(id: string, changes: Partial<Pick<OrganizationRecord, 'name' | 'slug' | 'logo'>>): Promise<OrganizationRecord | null | 'slug-taken'>
  /** Its members, invitations and active sessions go with it. False when there was none. */
  deleteOrganization(id: string): Promise<boolean>
  /** The user's organizations with their role, by name. */
  listOrganizationsOfUser(userId: string): Promise<Array<OrganizationRecord & { role: string }>>
  getMember(organizationId: string, userId: string): Promise<MemberRecord | null>
  /** A membership by its id, with its organization's slug. */
  getMemberById(memberId: string): Promise<(MemberRecord & { slug: string }) | null>
  /** The members, oldest first; `name`, `email`, `image` where the store joins the users (else the caller reads them). */
  listMembers(organizationId: string): Promise<ListedMember[]>
  /** Never leaves the organization without an owner: 'last-owner' then, nothing changed. */
  setMemberRole(organizationId: string, userId: string, role: string): Promise<MemberChange>
  /** As setMemberRole: the last owner stays. The member's active sessions lose the organization. */
  removeMember(organizationId: string, userId: string): Promise<MemberChange>
  /** The stored session tokens whose active organization is this user's membership of it: the sessions "in" the organization. */
  activeSessionsOf(organizationId: string, userId: string): Promise<string[]>
  /** Stores the invitation under its token's hash, replacing the organization's earlier one to the address. */
  createInvitation(invitation: InvitationRecord & { tokenHash: string }): Promise<InvitationRecord>
  listInvitations(organizationId: string): Promise<InvitationRecord[]>
  /** The invitation a token's hash names, with its organization's name; expired ones too (the caller checks). */
  getInvitationByToken(tokenHash: string): Promise<(InvitationRecord & { organizationName: string }) | null>
  /** Revokes one of the organization's invitations; null when it has none of that id. */
  deleteInvitation(organizationId: string, invitationId: string): Promise<InvitationRecord | null>
  /**
   * Spends the invitation (one winner, whatever the servers) when it is for `email` and not
   * expired at `now`, and makes the user a member with its role (one already a member keeps
   * theirs); null when no invitation matched.
   */
  acceptInvitation(accept: { tokenHash: string; email: string; userId: string; memberId: string; now: Date }): Promise<{ invitation: InvitationRecord; member: MemberRecord } | null>
  /**
   * Makes the user a member with `member.role`, for other plugins (SCIM's provisioning, a first
   * sign-in through an organization's connection); one already a member keeps their membership
   * and role (`added` false). Null when there is no such organization (or it went meanwhile).
   */
  addMember(member: MemberRecord): Promise<{ member: MemberRecord; added: boolean } | null>
  /** The session's active membership, or none (null). */
  setActiveMember(sessionToken: string, memberId: string | null): Promise<void>
  /** The session's active organization, read live from the membership: null when none or no longer a member. */
  activeOrganization(sessionToken: string, userId: string): Promise<ActiveOrganization | null>
}

/** The methods of verified domains (plugin migration 2), in an adapter made with the plugin. */
export interface DomainStore {
  /**
   * Claims a domain for the organization with a challenge (its token's hash). Claimed already by
   * it and pending: the challenge is replaced; verified by it: the record as it is, unchanged.
   */
  addDomain(domain: DomainRecord & { challengeHash: string }): Promise<DomainRecord>
  /** The organization's domains, by name. */
  listDomains(organizationId: string): Promise<DomainRecord[]>
  /** One of the organization's domains with its challenge's hash (null once verified); null when it has none of that id. */
  getDomain(organizationId: string, domainId: string): Promise<(DomainRecord & { challengeHash: string | null }) | null>
  /** Marks it verified at `now` and drops its challenge; 'taken' when another organization verified the domain first; null when there is none. */
  verifyDomain(organizationId: string, domainId: string, now: Date): Promise<DomainRecord | 'taken' | null>
  updateDomain(organizationId: string, domainId: string, changes: Partial<Pick<DomainRecord, 'role' | 'autoJoin'>>): Promise<DomainRecord | null>
  removeDomain(organizationId: string, domainId: string): Promise<DomainRecord | null>
  /** The organization that verified `domain` (normalized), with the domain's record; null when none has. */
  verifiedDomain(domain: string): Promise<VerifiedDomain | null>
  /**
   * Makes the user a member with the domain's role, in one statement that checks the domain is
   * still verified by the organization; null when it is not (or the user is a member already).
   */
  joinByDomain(join: { organizationId: string; domain: string; userId: string; memberId: string; now: Date }): Promise<MemberRecord | null>
}

/** The membership each user last made active (plugin migration 3): where a new sign-in starts. */
export interface LastActiveStore {
  /** Remembers `memberId` as the user's last active membership, where it is theirs (else nothing changes); null: none, the personal account. */
  setLastActiveMember(userId: string, memberId: string | null): Promise<void>
  /** The user's last active membership, live: null when none, or when it is gone (removed, left, the organization deleted). */
  lastActiveMember(userId: string): Promise<MemberRecord | null>
}
