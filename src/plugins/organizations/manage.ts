/**
 * GET and POST /organizations and /organizations/:id: the signed-in user's organizations, and
 * what a member may do in one. Every answer about an organization starts from the caller's own
 * membership: an organization they are not in answers exactly as one that does not exist.
 */
import { AuthError, json, readAction, requireFresh, requireOwner, type Body, type Context, type Reply, type SignedIn } from 'latchkey/server'
import { activeOf, setActive, store } from './active.js'
import { actor, eventView, membership, requirePermission, view, type Found } from './access.js'
import { aboveOwnRole, lastOwner, memberNotFound, organizationNotFound, slugTaken } from './errors.js'
import { fire } from './events.js'
import { readId, readLogo, readName, readRole, readSlug, readSwitchTarget, slugOf } from './fields.js'
import { invite, revokeInvitation } from './invitations.js'
import { join } from './domains.js'
import type { Resolved } from './options.js'
import type { MemberChange, MemberRecord } from './records.js'

/** What the session holds now, for `active` in the answers. */
const activeNow = (ctx: Context, me: SignedIn) => activeOf(ctx, { record: me.read.record, token: me.read.token, stored: me.read.record?.pluginData?.organizations })

export async function listOrganizations(ctx: Context): Promise<Reply> {
  const me = await requireOwner(ctx)
  const [organizations, active] = await Promise.all([store(ctx).listOrganizationsOfUser(me.user.id), activeNow(ctx, me)])
  return json(ctx, { organizations: organizations.map((o) => view(o, o.role)), active: active?.id ?? null })
}

export async function organizationsPost(ctx: Context): Promise<Reply> {
  const { body, action } = await readAction(ctx, ['create', 'switch', 'join'])
  const me = await requireOwner(ctx)
  return action === 'create' ? create(ctx, me, body) : action === 'join' ? join(ctx, me, body) : switchTo(ctx, me, body)
}

async function create(ctx: Context, me: SignedIn, body: Body): Promise<Reply> {
  const name = readName(body, true)!
  const asked = readSlug(body)
  const logo = readLogo(body) ?? null
  const s = store(ctx)
  const now = new Date(ctx.now)
  const make = (slug: string) => {
    const id = crypto.randomUUID()
    return s.createOrganization({ id, name, slug, logo, createdAt: now }, { id: crypto.randomUUID(), organizationId: id, userId: me.user.id, role: 'owner', joinedAt: now })
  }
  // A slug asked for is that one or none; one made from the name gets a short tail where it is taken.
  let organization = await make(asked ?? slugOf(name))
  if (!organization && !asked) organization = await make(`${slugOf(name)}-${crypto.randomUUID().slice(0, 6)}`)
  if (!organization) throw slugTaken()
  const member = (await s.getMember(organization.id, me.user.id))!
  await setActive(ctx, me.read, member.id)
  await fire(ctx, 'organizationMemberAdded', { organization: eventView(organization), member: { userId: me.user.id, role: 'owner' }, via: 'create', by: actor(me) })
  return json(ctx, view(organization, 'owner'))
}

async function switchTo(ctx: Context, me: SignedIn, body: Body): Promise<Reply> {
  const target = readSwitchTarget(body)
  const member = target === null ? null : (await membership(ctx, target, me.user.id)).member
  await setActive(ctx, me.read, member?.id ?? null)
  return json(ctx, { active: target })
}

export async function organizationDetails(ctx: Context, options: Resolved, organizationId: string): Promise<Reply> {
  const me = await requireOwner(ctx)
  const { member, organization } = await membership(ctx, organizationId, me.user.id)
  const s = store(ctx)
  const mayInvite = options.roles.allows(member.role, 'member:invite')
  const [listed, invitations] = await Promise.all([s.listMembers(organization.id), mayInvite ? s.listInvitations(organization.id) : undefined])
  const adapter = ctx.config.adapter!
  const members = await Promise.all(
    listed.map(async (m) => {
      // A store that does not join the users (memory) leaves their fields to read here.
      const user = m.email === undefined ? await adapter.getUser?.(m.userId) : m
      return { userId: m.userId, name: user?.name ?? null, email: user?.email ?? null, image: user?.image ?? null, role: m.role, joinedAt: m.joinedAt.toISOString() }
    }),
  )
  return json(ctx, {
    ...view(organization, member.role),
    members,
    ...(invitations && {
      invitations: invitations.map((i) => ({ id: i.id, email: i.email, role: i.role, invitedBy: i.invitedBy, expires: i.expires.toISOString(), createdAt: i.createdAt.toISOString(), expired: i.expires.getTime() <= ctx.now })),
    }),
    roles: options.roles.names.map((name) => ({ name, permissions: options.roles.permissionsOf(name) })),
  })
}

const organizationActions = ['update', 'delete', 'leave', 'set-role', 'remove-member', 'invite', 'revoke-invitation'] as const

export async function organizationPost(ctx: Context, options: Resolved, organizationId: string): Promise<Reply> {
  const { body, action } = await readAction(ctx, organizationActions)
  const me = await requireOwner(ctx)
  const found = await membership(ctx, organizationId, me.user.id)
  switch (action) {
    case 'update':
      return update(ctx, options, me, found, body)
    case 'delete':
      return remove(ctx, options, me, found)
    case 'leave':
      return leave(ctx, me, found)
    case 'set-role':
      return setRole(ctx, options, me, found, body)
    case 'remove-member':
      return removeMember(ctx, options, me, found, body)
    case 'invite':
      return invite(ctx, options, me, found, body)
    case 'revoke-invitation':
      return revokeInvitation(ctx, options, me, found, body)
  }
}

async function update(ctx: Context, options: Resolved, me: SignedIn, { member, organization }: Found, body: Body): Promise<Reply> {
  requirePermission(options, member, 'organization:update')
  const changes = { name: readName(body, false), slug: readSlug(body), logo: readLogo(body) }
  if (changes.name === undefined && changes.slug === undefined && changes.logo === undefined) {
    throw new AuthError('InvalidRequest', 'Expected at least one of "name", "slug" or "logo" to change', { status: 400 })
  }
  const updated = await store(ctx).updateOrganization(organization.id, changes)
  if (updated === 'slug-taken') throw slugTaken()
  if (!updated) throw organizationNotFound()
  // The slug is in the session: every tab reads it anew.
  if (changes.slug !== undefined) await setActiveIfCurrent(ctx, me, member)
  return json(ctx, view(updated, member.role))
}

/** Announces the session where `member` is this browser's active membership (its organization changed). */
async function setActiveIfCurrent(ctx: Context, me: SignedIn, member: MemberRecord): Promise<void> {
  const active = await activeNow(ctx, me)
  if (active?.id === member.organizationId) await setActive(ctx, me.read, member.id)
}

async function remove(ctx: Context, options: Resolved, me: SignedIn, { member, organization }: Found): Promise<Reply> {
  requirePermission(options, member, 'organization:delete')
  requireFresh(ctx, me.signedInAt)
  const active = await activeNow(ctx, me)
  if (!(await store(ctx).deleteOrganization(organization.id))) throw organizationNotFound()
  if (active?.id === organization.id) await setActive(ctx, me.read, null)
  await fire(ctx, 'organizationDeleted', { organization: eventView(organization), by: actor(me) })
  return json(ctx, { deleted: organization.id })
}

function changed(result: MemberChange): void {
  if (result === 'last-owner') throw lastOwner()
  if (result === 'missing') throw memberNotFound()
}

async function leave(ctx: Context, me: SignedIn, { member, organization }: Found): Promise<Reply> {
  const active = await activeNow(ctx, me)
  changed(await store(ctx).removeMember(organization.id, me.user.id))
  if (active?.id === organization.id) await setActive(ctx, me.read, null)
  await fire(ctx, 'organizationMemberRemoved', { organization: eventView(organization), member: { userId: me.user.id, role: member.role }, left: true, by: actor(me) })
  return json(ctx, { left: organization.id })
}

async function setRole(ctx: Context, options: Resolved, me: SignedIn, { member, organization }: Found, body: Body): Promise<Reply> {
  requirePermission(options, member, 'member:set-role')
  const userId = readId(body, 'userId')
  const role = readRole(body, options.roles.names)
  const target = userId === me.user.id ? member : await store(ctx).getMember(organization.id, userId)
  if (!target) throw memberNotFound()
  const rank = options.roles.rank
  // Nobody grants more than they hold, nor changes the role of someone who ranks above them.
  if (rank(role) > rank(member.role) || rank(target.role) > rank(member.role)) throw aboveOwnRole()
  // Making an owner (a transfer of ownership) or unmaking one: as destructive as deleting, so a fresh sign-in.
  if (role === 'owner' || target.role === 'owner') requireFresh(ctx, me.signedInAt)
  if (target.role !== role) {
    changed(await store(ctx).setMemberRole(organization.id, userId, role))
    await fire(ctx, 'organizationRoleChanged', { organization: eventView(organization), member: { userId, role }, from: target.role, by: actor(me) })
    // The role is in the session: the caller's own tabs read it anew.
    if (userId === me.user.id) await setActiveIfCurrent(ctx, me, member)
  }
  return json(ctx, { userId, role })
}

async function removeMember(ctx: Context, options: Resolved, me: SignedIn, found: Found, body: Body): Promise<Reply> {
  const userId = readId(body, 'userId')
  if (userId === me.user.id) return leave(ctx, me, found)
  const { member, organization } = found
  requirePermission(options, member, 'member:remove')
  const target = await store(ctx).getMember(organization.id, userId)
  if (!target) throw memberNotFound()
  if (options.roles.rank(target.role) > options.roles.rank(member.role)) throw aboveOwnRole()
  changed(await store(ctx).removeMember(organization.id, userId))
  await fire(ctx, 'organizationMemberRemoved', { organization: eventView(organization), member: { userId, role: target.role }, left: false, by: actor(me) })
  return json(ctx, { removed: userId })
}
