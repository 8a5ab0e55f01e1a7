/**
 * A provisioned user's membership, through the organizations plugin's store methods (the adapter
 * is made with both plugins). Deprovisioning ends the user's sessions in the organization (those
 * whose active organization it is) and removes the membership: on every server at once, since
 * both live in the store each session read asks.
 */
import { useAdapter, type Context } from 'latchkey/server'
import { ScimError } from './errors.js'
import { fire, type Caller } from './events.js'

/** The organizations plugin's methods this plugin calls (its `OrganizationStore`, as far as used here). */
interface Members {
  getOrganization(id: string): Promise<{ id: string } | null>
  getMember(organizationId: string, userId: string): Promise<{ role: string } | null>
  addMember(member: { id: string; organizationId: string; userId: string; role: string; joinedAt: Date }): Promise<{ member: { role: string }; added: boolean } | null>
  removeMember(organizationId: string, userId: string): Promise<'done' | 'missing' | 'last-owner'>
  activeSessionsOf(organizationId: string, userId: string): Promise<string[]>
}
export const memberMethods: Array<keyof Members> = ['getOrganization', 'getMember', 'addMember', 'removeMember', 'activeSessionsOf']

const members = (ctx: Context) => useAdapter<Members>(ctx.config, memberMethods, 'scim (with the organizations plugin)')

export async function grant(ctx: Context, caller: Caller, userId: string, role: string): Promise<void> {
  const made = await members(ctx).addMember({ id: crypto.randomUUID(), organizationId: caller.organization.id, userId, role, joinedAt: new Date(ctx.now) })
  if (made?.added) await fire(ctx, 'organizationMemberAdded', { organization: caller.organization, member: { userId, role: made.member.role }, via: 'scim', by: caller.token })
}

/** Ends the membership and its sessions; true where there was one. */
export async function revoke(ctx: Context, caller: Caller, userId: string): Promise<boolean> {
  const m = members(ctx)
  const organizationId = caller.organization.id
  const [member, sessions] = await Promise.all([m.getMember(organizationId, userId), m.activeSessionsOf(organizationId, userId)])
  const removed = await m.removeMember(organizationId, userId)
  if (removed === 'last-owner') {
    throw new ScimError(409, "The organization's last owner cannot be deprovisioned: make another member owner first", 'mutability')
  }
  const adapter = useAdapter(ctx.config, ['deleteSession'], 'scim')
  await Promise.all(sessions.map((token) => adapter.deleteSession(token)))
  if (removed !== 'done' || !member) return false
  await fire(ctx, 'organizationMemberRemoved', { organization: caller.organization, member: { userId, role: member.role }, left: false, via: 'scim', by: caller.token })
  return true
}
