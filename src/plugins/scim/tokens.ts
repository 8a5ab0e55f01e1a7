/**
 * GET and POST /scim-tokens/:organizationId: an organization's SCIM tokens, for a member whose
 * role holds `scim:manage` (contributed to the organizations plugin's roles: the owner's by default). A token is shown once, when made; only its
 * SHA-256 is kept, so a list shows names and dates. Making one needs a fresh session: it can
 * provision and deprovision the organization's members.
 */
import { AuthError, json, randomToken, readAction, requireFresh, requireOwner, sha256Hex, stringField, useAdapter, type Context, type Reply, type SignedIn } from 'latchkey/server'
import { tokenNotFound } from './errors.js'
import { fire, organizationInfo, tokenInfo, userActor } from './events.js'
import { readGroupRoles, rolesOf } from './group-roles.js'
import { store } from './http.js'
import type { ScimTokenRecord } from './records.js'

export const permission = 'scim:manage'
const maxName = 100

interface Members {
  getOrganization(id: string): Promise<{ id: string; name: string; slug: string } | null>
  getMember(organizationId: string, userId: string): Promise<{ role: string } | null>
}

/** The caller's membership of the organization, holding `scim:manage`: else 404 (not theirs, or none) or 403. */
async function manager(ctx: Context, organizationId: string): Promise<{ me: SignedIn; organization: { id: string; name: string; slug: string }; role: string }> {
  const me = await requireOwner(ctx)
  const m = useAdapter<Members>(ctx.config, ['getOrganization', 'getMember'], 'scim')
  const [organization, member] = await Promise.all([m.getOrganization(organizationId), m.getMember(organizationId, me.user.id)])
  if (!organization || !member) throw new AuthError('OrganizationNotFound', 'No organization of yours has this id', { status: 404 })
  // The roles are the organizations plugin's: it answers for a session in this organization with this role.
  const session = { user: { id: me.user.id }, expires: '', organization: { id: organization.id, slug: organization.slug, role: member.role } }
  const allowed = ctx.config.plugins.some((p) => p.permits?.(session as never, permission) === true)
  if (!allowed) throw new AuthError('OrganizationForbidden', `Your role in this organization does not allow this (${permission})`, { status: 403 })
  return { me, organization, role: member.role }
}

const view = (t: ScimTokenRecord) => ({ id: t.id, name: t.name, createdBy: t.createdBy, createdAt: t.createdAt.toISOString(), groupRoles: t.groupRoles })

export async function listTokens(ctx: Context, organizationId: string | undefined): Promise<Reply> {
  if (!organizationId) throw new AuthError('InvalidRequest', 'Expected /scim-tokens/<organization id>', { status: 400 })
  await manager(ctx, organizationId)
  return json(ctx, { tokens: (await store(ctx).listScimTokens(organizationId)).map(view), endpoint: `${ctx.baseUrl}/scim/v2` })
}

export async function tokensPost(ctx: Context, organizationId: string | undefined): Promise<Reply> {
  const { body, action } = await readAction(ctx, ['create', 'revoke'])
  if (!organizationId) throw new AuthError('InvalidRequest', 'Expected /scim-tokens/<organization id>', { status: 400 })
  const { me, organization, role } = await manager(ctx, organizationId)
  if (action === 'revoke') {
    const id = stringField(body, 'id')
    if (!id || id.length > 200) throw new AuthError('InvalidRequest', 'Expected "id": the id of one of the organization\'s SCIM tokens', { status: 400 })
    const token = (await store(ctx).listScimTokens(organizationId)).find((t) => t.id === id)
    if (!token || !(await store(ctx).deleteScimToken(organizationId, id))) throw tokenNotFound()
    await fire(ctx, 'scimTokenRevoked', { organization: organizationInfo(organization), token: tokenInfo(token), by: userActor(me) })
    return json(ctx, { revoked: id })
  }
  requireFresh(ctx, me.signedInAt)
  const name = (stringField(body, 'name') ?? '').trim()
  if (!name || name.length > maxName || /[\u0000-\u001f\u007f]/.test(name)) throw new AuthError('InvalidRequest', `Expected "name": 1 to ${maxName} printable characters, to tell the token apart`, { status: 400 })
  const groupRoles = readGroupRoles((body as Record<string, unknown>).groupRoles, rolesOf(ctx), role)
  const token = `lks_${randomToken(32)}`
  const made = await store(ctx).createScimToken({ id: crypto.randomUUID(), organizationId, name, tokenHash: await sha256Hex(token), createdBy: me.user.id, createdAt: new Date(ctx.now), groupRoles })
  await fire(ctx, 'scimTokenCreated', { organization: organizationInfo(organization), token: tokenInfo(made), by: userActor(me) })
  return json(ctx, { ...view(made), token, endpoint: `${ctx.baseUrl}/scim/v2` })
}
