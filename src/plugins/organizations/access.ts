/** What every organization route starts from: the caller's membership, and what their role allows. */
import type { Context, SignedIn } from 'latchkey/server'
import { store } from './active.js'
import { forbidden, organizationNotFound } from './errors.js'
import type { Actor } from './events.js'
import type { Resolved } from './options.js'
import type { MemberRecord, OrganizationRecord } from './records.js'

export const actor = (me: SignedIn): Actor => ({ id: me.user.id, email: me.user.email ?? null })
export const eventView = (org: OrganizationRecord) => ({ id: org.id, name: org.name, slug: org.slug })
export const view = (org: OrganizationRecord, role: string) => ({ id: org.id, name: org.name, slug: org.slug, logo: org.logo, role })

/** The caller's membership and its organization, or 404 `OrganizationNotFound` (the same for none and not theirs). */
export async function membership(ctx: Context, organizationId: string, userId: string): Promise<{ member: MemberRecord; organization: OrganizationRecord }> {
  const s = store(ctx)
  const [member, organization] = await Promise.all([s.getMember(organizationId, userId), s.getOrganization(organizationId)])
  if (!member || !organization) throw organizationNotFound()
  return { member, organization }
}

export function requirePermission(options: Resolved, member: MemberRecord, permission: string): void {
  if (!options.roles.allows(member.role, permission)) throw forbidden(permission)
}

export type Found = Awaited<ReturnType<typeof membership>>
