/**
 * Events, through the configuration's `events`: SCIM's own (tokens made and revoked, users
 * deactivated), declared onto latchkey's `EventCallbacks`; and the organizations plugin's member
 * events, fired with `via: 'scim'` and the token as `by` (that plugin declares their types; the
 * shapes here are the same, as this plugin imports no other).
 */
import type { Context, SignedIn } from 'latchkey/server'
import type { ScimTokenRecord } from './records.js'

export interface ScimOrganizationInfo {
  id: string
  name: string
  slug: string
}

/** The SCIM token that acted: its id and name, never its secret. */
export interface ScimTokenActor {
  id: string
  name: string
}

export interface ScimTokenEventInfo {
  id: string
  name: string
  createdAt: Date
}

export interface ScimEvents {
  /** An admin made a SCIM token (`by`: them). */
  scimTokenCreated?: (message: { organization: ScimOrganizationInfo; token: ScimTokenEventInfo; by: { id: string; email: string | null } }) => void | Promise<void>
  scimTokenRevoked?: (message: { organization: ScimOrganizationInfo; token: ScimTokenEventInfo; by: { id: string; email: string | null } }) => void | Promise<void>
  /** The IdP deprovisioned a user: `active: false` (`deleted` false) or DELETE of an active user (`deleted` true). */
  scimUserDeactivated?: (message: { organization: ScimOrganizationInfo; user: { id: string; userId: string; userName: string }; deleted: boolean; by: ScimTokenActor }) => void | Promise<void>
}

declare module 'latchkey/server' {
  interface EventCallbacks extends ScimEvents {}
}

type Member = { userId: string; role: string }
/** The organizations plugin's member events as this plugin fires them. */
interface MemberEvents {
  organizationMemberAdded?: (m: { organization: ScimOrganizationInfo; member: Member; via: 'scim'; by: ScimTokenActor }) => unknown
  organizationMemberRemoved?: (m: { organization: ScimOrganizationInfo; member: Member; left: false; via: 'scim'; by: ScimTokenActor }) => unknown
  organizationRoleChanged?: (m: { organization: ScimOrganizationInfo; member: Member; from: string; via: 'scim'; by: ScimTokenActor }) => unknown
}

type All = ScimEvents & MemberEvents

export async function fire<N extends keyof All>(ctx: Context, name: N, message: Parameters<NonNullable<All[N]>>[0]): Promise<void> {
  const listener = (ctx.config.events as All)[name] as ((m: typeof message) => unknown) | undefined
  if (listener) await listener(message)
}

/** What a SCIM request acts as: its token's organization and the token. */
export interface Caller {
  organization: ScimOrganizationInfo
  token: ScimTokenActor
  /** The token's group mapping, and who made it (no mapped role ranks above them). */
  groupRoles: Record<string, string>
  createdBy: string | null
}

export const tokenInfo = (t: ScimTokenRecord): ScimTokenEventInfo => ({ id: t.id, name: t.name, createdAt: t.createdAt })
export const userActor = (me: SignedIn) => ({ id: me.user.id, email: me.user.email ?? null })
export const organizationInfo = (o: { id: string; name: string; slug: string }): ScimOrganizationInfo => ({ id: o.id, name: o.name, slug: o.slug })
