/**
 * A provisioned user's membership, through the organizations plugin's store methods (the adapter
 * is made with both plugins). Deprovisioning ends the user's sessions in the organization (those
 * whose active organization it is) and removes the membership: on every server at once, since
 * both live in the store each session read asks.
 */
import { useAdapter, type Context } from 'latchkey/server'
import { ScimError } from './errors.js'

/** The organizations plugin's methods this plugin calls (its `OrganizationStore`, as far as used here). */
interface Members {
  getOrganization(id: string): Promise<{ id: string } | null>
  addMember(member: { id: string; organizationId: string; userId: string; role: string; joinedAt: Date }): Promise<unknown>
  removeMember(organizationId: string, userId: string): Promise<'done' | 'missing' | 'last-owner'>
  activeSessionsOf(organizationId: string, userId: string): Promise<string[]>
}
export const memberMethods: Array<keyof Members> = ['getOrganization', 'addMember', 'removeMember', 'activeSessionsOf']

const members = (ctx: Context) => useAdapter<Members>(ctx.config, memberMethods, 'scim (with the organizations plugin)')

export async function grant(ctx: Context, organizationId: string, userId: string, role: string): Promise<void> {
  await members(ctx).addMember({ id: crypto.randomUUID(), organizationId, userId, role, joinedAt: new Date(ctx.now) })
}

export async function revoke(ctx: Context, organizationId: string, userId: string): Promise<void> {
  const m = members(ctx)
  const sessions = await m.activeSessionsOf(organizationId, userId)
  if ((await m.removeMember(organizationId, userId)) === 'last-owner') {
    throw new ScimError(409, "The organization's last owner cannot be deprovisioned: make another member owner first", 'mutability')
  }
  const adapter = useAdapter(ctx.config, ['deleteSession'], 'scim')
  await Promise.all(sessions.map((token) => adapter.deleteSession(token)))
}
