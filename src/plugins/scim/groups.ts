/**
 * /Groups: the organization's groups and their members (its provisioned users), kept in the
 * plugin's own tables. A group grants a role only where the token maps it (group-roles.ts).
 * Members that are not the organization's users are left out.
 */
import type { Context, Reply } from 'latchkey/server'
import { invalidValue, notFound, ScimError, uniqueness } from './errors.js'
import { matches, parseFilter, plainEquality } from './filter.js'
import { listReply, pageOf, project, readScimBody, scimReply, store } from './http.js'
import type { Caller } from './events.js'
import { applyGroupRoles } from './group-roles.js'
import { normalizeResource, type Doc } from './normalize.js'
import type { ResolvedScim } from './options.js'
import { applyPatch } from './patch.js'
import type { ScimGroupRecord } from './records.js'
import { groupKind, urn } from './schema.js'

const maxName = 256
const maxMembers = 10_000

function fieldsOf(doc: Doc): Pick<ScimGroupRecord, 'displayName' | 'externalId' | 'members'> {
  const { displayName, externalId, members } = doc
  if (typeof displayName !== 'string' || !displayName.trim() || displayName.length > maxName) throw invalidValue(`Expected "displayName": a string of 1 to ${maxName} characters`)
  const ids = ((members as Doc[] | undefined) ?? []).map((m) => m.value).filter((v): v is string => typeof v === 'string')
  if (ids.length > maxMembers) throw invalidValue(`Expected at most ${maxMembers} members`)
  return { displayName, externalId: typeof externalId === 'string' && externalId ? externalId : null, members: ids }
}

const docOf = (g: ScimGroupRecord): Doc => ({ displayName: g.displayName, ...(g.externalId !== null && { externalId: g.externalId }), members: g.members.map((value) => ({ value })) })

function render(ctx: Context, g: ScimGroupRecord): Doc {
  const base = `${ctx.baseUrl}/scim/v2`
  return {
    schemas: [urn.group],
    id: g.id,
    ...docOf(g),
    members: g.members.map((value) => ({ value, $ref: `${base}/Users/${value}`, type: 'User' })),
    meta: { resourceType: 'Group', created: g.createdAt.toISOString(), lastModified: g.updatedAt.toISOString(), location: `${base}/Groups/${g.id}`, version: `W/"${g.version}"` },
  }
}

const answer = (ctx: Context, status: number, g: ScimGroupRecord) =>
  scimReply(ctx, status, project(render(ctx, g), ctx.url.searchParams), { location: `${ctx.baseUrl}/scim/v2/Groups/${g.id}`, etag: `W/"${g.version}"` })

export async function listGroups(ctx: Context, options: ResolvedScim, organizationId: string): Promise<Reply> {
  const params = ctx.url.searchParams
  const { startIndex, count } = pageOf(params, options.maxResults)
  const text = params.get('filter')
  const s = store(ctx)
  const out = (groups: ScimGroupRecord[]) => groups.map((g) => project(render(ctx, g), params))
  const filter = text ? parseFilter(groupKind, text) : undefined
  const plain = filter && plainEquality(filter, ['displayName', 'externalId', 'id'])
  if (!filter || plain) {
    if (plain?.name === 'id') {
      const found = await s.getScimGroup(organizationId, plain.value)
      return listReply(ctx, out(found && startIndex === 1 && count > 0 ? [found] : []), found ? 1 : 0, startIndex)
    }
    const { total, groups } = await s.listScimGroups(organizationId, plain ? { [plain.name]: plain.value } : {}, { offset: startIndex - 1, limit: count })
    return listReply(ctx, out(groups), total, startIndex)
  }
  const { total, groups } = await s.listScimGroups(organizationId, {}, { offset: 0, limit: options.maxScan + 1 })
  if (total > options.maxScan) throw new ScimError(400, `The organization has more than ${options.maxScan} groups: filter with "displayName eq"`, 'tooMany')
  const hits = groups.filter((g) => matches(filter, render(ctx, g)))
  return listReply(ctx, out(hits.slice(startIndex - 1, startIndex - 1 + count)), hits.length, startIndex)
}

export async function getGroup(ctx: Context, organizationId: string, id: string): Promise<Reply> {
  const found = await store(ctx).getScimGroup(organizationId, id)
  if (!found) throw notFound('Group')
  return answer(ctx, 200, found)
}

export async function createGroup(ctx: Context, options: ResolvedScim, caller: Caller): Promise<Reply> {
  const fields = fieldsOf(normalizeResource(groupKind, await readScimBody(ctx)))
  const now = new Date(ctx.now)
  const made = await store(ctx).createScimGroup({ id: crypto.randomUUID(), organizationId: caller.organization.id, ...fields, createdAt: now, updatedAt: now, version: 1 })
  if (made === 'taken') throw uniqueness('The displayName')
  await applyGroupRoles(ctx, options, caller, made.members)
  return answer(ctx, 201, made)
}

/** Stores the group's new document; the roles of those who joined or left (or stayed, when its name changed) follow. */
async function save(ctx: Context, options: ResolvedScim, caller: Caller, current: ScimGroupRecord, doc: Doc): Promise<Reply> {
  const saved = await store(ctx).updateScimGroup(current.organizationId, current.id, { ...fieldsOf(doc), updatedAt: new Date(ctx.now) })
  if (saved === 'taken') throw uniqueness('The displayName')
  if (!saved) throw notFound('Group')
  await applyGroupRoles(ctx, options, caller, [...current.members, ...saved.members])
  return answer(ctx, 200, saved)
}

export async function replaceGroup(ctx: Context, options: ResolvedScim, caller: Caller, id: string): Promise<Reply> {
  const body = await readScimBody(ctx)
  const current = await store(ctx).getScimGroup(caller.organization.id, id)
  if (!current) throw notFound('Group')
  return save(ctx, options, caller, current, normalizeResource(groupKind, body))
}

export async function patchGroup(ctx: Context, options: ResolvedScim, caller: Caller, id: string): Promise<Reply> {
  const body = await readScimBody(ctx)
  const current = await store(ctx).getScimGroup(caller.organization.id, id)
  if (!current) throw notFound('Group')
  return save(ctx, options, caller, current, applyPatch(groupKind, docOf(current), body, id))
}

export async function deleteGroup(ctx: Context, options: ResolvedScim, caller: Caller, id: string): Promise<Reply> {
  const s = store(ctx)
  const current = await s.getScimGroup(caller.organization.id, id)
  if (!current || !(await s.deleteScimGroup(caller.organization.id, id))) throw notFound('Group')
  await applyGroupRoles(ctx, options, caller, current.members)
  return scimReply(ctx, 204, null)
}
