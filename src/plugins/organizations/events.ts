/**
 * The plugin's events, through the configuration's `events` (`Latchkey({ events: { ... } })`):
 * declared onto latchkey's `EventCallbacks`, so an app that imports the plugin has them typed.
 * Each says who did it (`by`: the signed-in user who acted).
 */
import type { Context } from 'latchkey/server'

export interface OrganizationEventInfo {
  id: string
  name: string
  slug: string
}

export interface MemberEventInfo {
  userId: string
  role: string
}

export interface InvitationEventInfo {
  id: string
  email: string
  role: string
  expires: Date
}

export interface DomainEventInfo {
  id: string
  domain: string
  role: string
  autoJoin: boolean
}

/** Who acted: the signed-in user. */
export interface Actor {
  id: string
  email: string | null
}

/** Who acted for `via: 'scim'`: the organization's SCIM token (the IdP), by its id and name. */
export interface ScimTokenActor {
  id: string
  name: string
}

export interface OrganizationEvents {
  /**
   * A member joined: the creator of a new organization (`via: 'create'`), an invitee who accepted,
   * a user who joined by their verified address's domain (`'domain'`, with `domain`), or one made a
   * member at sign-in by a domain with `autoJoin` (`'auto-join'`, `by` the user).
   */
  organizationMemberAdded?: (
    message:
      | { organization: OrganizationEventInfo; member: MemberEventInfo; via: 'create' | 'invitation' | 'domain' | 'auto-join'; domain?: string; by: Actor }
      /** Provisioned by the organization's IdP (the SCIM plugin). */
      | { organization: OrganizationEventInfo; member: MemberEventInfo; via: 'scim'; by: ScimTokenActor },
  ) => void | Promise<void>
  /** A member left (`by` is the member) or was removed; `via: 'scim'` when the IdP deprovisioned them. */
  organizationMemberRemoved?: (
    message:
      | { organization: OrganizationEventInfo; member: MemberEventInfo; left: boolean; via?: undefined; by: Actor }
      | { organization: OrganizationEventInfo; member: MemberEventInfo; left: false; via: 'scim'; by: ScimTokenActor },
  ) => void | Promise<void>
  /** `via: 'scim'` when a group the IdP changed maps to another role. */
  organizationRoleChanged?: (
    message:
      | { organization: OrganizationEventInfo; member: MemberEventInfo; from: string; via?: undefined; by: Actor }
      | { organization: OrganizationEventInfo; member: MemberEventInfo; from: string; via: 'scim'; by: ScimTokenActor },
  ) => void | Promise<void>
  organizationInvitationSent?: (message: { organization: OrganizationEventInfo; invitation: InvitationEventInfo; by: Actor }) => void | Promise<void>
  /** `by` is the invitee, now a member with `member.role`. */
  organizationInvitationAccepted?: (message: { organization: OrganizationEventInfo; invitation: InvitationEventInfo; member: MemberEventInfo; by: Actor }) => void | Promise<void>
  organizationInvitationRevoked?: (message: { organization: OrganizationEventInfo; invitation: InvitationEventInfo; by: Actor }) => void | Promise<void>
  /** A domain's TXT record was found: users of the domain may join. */
  organizationDomainVerified?: (message: { organization: OrganizationEventInfo; domain: DomainEventInfo; by: Actor }) => void | Promise<void>
  organizationDomainRemoved?: (message: { organization: OrganizationEventInfo; domain: DomainEventInfo; by: Actor }) => void | Promise<void>
  organizationDeleted?: (message: { organization: OrganizationEventInfo; by: Actor }) => void | Promise<void>
}

declare module 'latchkey/server' {
  // Merged into latchkey's own: the configuration's `events` takes these too.
  interface EventCallbacks extends OrganizationEvents {}
}

/** Fires `name` where the configuration listens for it. */
export async function fire<N extends keyof OrganizationEvents>(ctx: Context, name: N, message: Parameters<NonNullable<OrganizationEvents[N]>>[0]): Promise<void> {
  const listener = (ctx.config.events as OrganizationEvents)[name] as ((m: typeof message) => void | Promise<void>) | undefined
  if (listener) await listener(message)
}
