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
   * Makes the user a member with `member.role` (for other plugins: a first sign-in through an
   * organization's connection); one already a member keeps theirs (`added` false). Null when
   * there is no such organization.
   */
  addMember(member: MemberRecord): Promise<{ member: MemberRecord; added: boolean } | null>
  /** The session's active membership, or none (null). */
  setActiveMember(sessionToken: string, memberId: string | null): Promise<void>
  /** The session's active organization, read live from the membership: null when none or no longer a member. */
  activeOrganization(sessionToken: string, userId: string): Promise<ActiveOrganization | null>
}
