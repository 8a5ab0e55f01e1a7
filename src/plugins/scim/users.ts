/**
 * /Users: provisioned users are latchkey users with a membership of the token's organization.
 * `active: false` (PUT or PATCH) and DELETE deprovision: the membership goes and the user's
 * sessions in the organization end (membership.ts); `active: true` provisions again.
 */
import { useAdapter, type AdapterUser, type Context, type Reply } from 'latchkey/server'
import { invalidFilter, invalidValue, notFound, ScimError, uniqueness } from './errors.js'
import { matches, parseFilter, plainEquality, type Filter, type FilterPath } from './filter.js'
import { listReply, pageOf, project, readScimBody, scimReply, store } from './http.js'
import { fire, type Caller } from './events.js'
import { roleFor } from './group-roles.js'
import { grant, revoke } from './membership.js'
import { normalizeResource, type Doc } from './normalize.js'
import type { ResolvedScim } from './options.js'
import { applyPatch } from './patch.js'
import type { ScimUserRecord } from './records.js'
import { urn, userKind } from './schema.js'

const maxUserName = 256

/** The columns a resource document splits into, checked. */
function fieldsOf(doc: Doc): Pick<ScimUserRecord, 'userName' | 'externalId' | 'active' | 'attributes'> {
  const { userName, externalId, active, ...attributes } = doc
  if (typeof userName !== 'string' || !userName.trim() || userName.length > maxUserName) throw invalidValue(`Expected "userName": a string of 1 to ${maxUserName} characters`)
  return { userName, externalId: typeof externalId === 'string' && externalId ? externalId : null, active: active !== false, attributes }
}

const docOf = (r: ScimUserRecord): Doc => ({ ...r.attributes, userName: r.userName, ...(r.externalId !== null && { externalId: r.externalId }), active: r.active })

/** The address latchkey's user gets: the primary email, else the work one, else the first, else a userName that is one. */
function emailOf(doc: Doc): string {
  const emails = ((doc.emails as Doc[] | undefined) ?? []).filter((e) => typeof e.value === 'string')
  const chosen = emails.find((e) => e.primary === true) ?? emails.find((e) => String(e.type).toLowerCase() === 'work') ?? emails[0]
  const email = String(chosen?.value ?? doc.userName).trim().toLowerCase()
  if (email.length > 254 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw invalidValue('Expected an email address: in "emails", or as the "userName"')
  return email
}

function nameOf(doc: Doc): string | null {
  const name = doc.name as Doc | undefined
  const given = [name?.givenName, name?.familyName].filter((v) => typeof v === 'string' && v).join(' ')
  return (doc.displayName as string | undefined) ?? (name?.formatted as string | undefined) ?? (given || null)
}

/** `groups`: the user's, where the caller read them (a page's in one query); else none are shown. */
function render(ctx: Context, r: ScimUserRecord, groups: Array<{ id: string; displayName: string }> = []): Doc {
  const { [urn.enterprise]: extension, ...core } = r.attributes
  const base = `${ctx.baseUrl}/scim/v2`
  return {
    schemas: extension ? [urn.user, urn.enterprise] : [urn.user],
    id: r.id,
    ...docOf({ ...r, attributes: core }),
    ...(extension !== undefined && { [urn.enterprise]: extension }),
    groups: groups.map((g) => ({ value: g.id, display: g.displayName, $ref: `${base}/Groups/${g.id}`, type: 'direct' })),
    meta: { resourceType: 'User', created: r.createdAt.toISOString(), lastModified: r.updatedAt.toISOString(), location: `${base}/Users/${r.id}`, version: `W/"${r.version}"` },
  }
}

const answer = async (ctx: Context, status: number, r: ScimUserRecord) => {
  const body = project(render(ctx, r, await store(ctx).groupsOfScimUser(r.organizationId, r.id)), ctx.url.searchParams)
  return scimReply(ctx, status, body, { location: `${ctx.baseUrl}/scim/v2/Users/${r.id}`, etag: `W/"${r.version}"` })
}

function mentions(f: Filter, name: string): boolean {
  if (f.op === 'and' || f.op === 'or') return mentions(f.left, name) || mentions(f.right, name)
  if (f.op === 'not') return mentions(f.filter, name)
  const path = (f as { path: FilterPath }).path
  return !('relative' in path) && path.attribute.name === name
}

export async function listUsers(ctx: Context, options: ResolvedScim, organizationId: string): Promise<Reply> {
  const params = ctx.url.searchParams
  const { startIndex, count } = pageOf(params, options.maxResults)
  const text = params.get('filter')
  const s = store(ctx)
  const withGroups = !/(^|,)\s*groups\s*(,|$)/i.test(params.get('excludedAttributes') ?? '')
  // One query for the page's groups, whatever its size.
  const out = async (users: ScimUserRecord[]) => {
    const groups = withGroups && users.length ? await s.groupsOfScimUsers(organizationId, users.map((u) => u.id)) : {}
    return users.map((u) => project(render(ctx, u, groups[u.id]), params))
  }
  const filter = text ? parseFilter(userKind, text) : undefined
  const plain = filter && plainEquality(filter, ['userName', 'externalId', 'id'])
  if (!filter || plain) {
    if (plain?.name === 'id') {
      const found = await s.getScimUser(organizationId, plain.value)
      const list = found && startIndex === 1 && count > 0 ? [found] : []
      return listReply(ctx, await out(list), found ? 1 : 0, startIndex)
    }
    const where = plain ? { [plain.name]: plain.value } : {}
    const { total, users } = await s.listScimUsers(organizationId, where, { offset: startIndex - 1, limit: count })
    return listReply(ctx, await out(users), total, startIndex)
  }
  if (mentions(filter, 'groups')) throw invalidFilter('filters on a user\'s "groups" are not supported: filter the Groups on "members" instead')
  const { total, users } = await s.listScimUsers(organizationId, {}, { offset: 0, limit: options.maxScan + 1 })
  if (total > options.maxScan) throw new ScimError(400, `The organization has more than ${options.maxScan} users: filter with "userName eq" or "externalId eq"`, 'tooMany')
  const hits: ScimUserRecord[] = []
  for (const u of users) if (matches(filter, render(ctx, u))) hits.push(u)
  return listReply(ctx, await out(hits.slice(startIndex - 1, startIndex - 1 + count)), hits.length, startIndex)
}

export async function getUser(ctx: Context, organizationId: string, id: string): Promise<Reply> {
  const found = await store(ctx).getScimUser(organizationId, id)
  if (!found) throw notFound('User')
  return answer(ctx, 200, found)
}

export async function createUser(ctx: Context, options: ResolvedScim, caller: Caller): Promise<Reply> {
  const organizationId = caller.organization.id
  const doc = normalizeResource(userKind, await readScimBody(ctx))
  const fields = fieldsOf(doc)
  const email = emailOf(doc)
  const s = store(ctx)
  if ((await s.listScimUsers(organizationId, { userName: fields.userName }, { offset: 0, limit: 0 })).total) throw uniqueness('The userName')
  const adapter = useAdapter(ctx.config, ['getUserByEmail', 'createUser', 'deleteUser'], 'scim')
  const vouched = await options.vouches(organizationId, email)
  let user = await adapter.getUserByEmail(email)
  let made = false
  if (!user) {
    try {
      user = await adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: vouched ? new Date(ctx.now) : null, name: nameOf(doc) })
      made = true
    } catch (error) {
      // Another request made the user of this address in between.
      user = await adapter.getUserByEmail(email)
      if (!user) throw error
    }
  }
  // An unproven address never merges into an account someone else holds.
  if (!made && !vouched) throw uniqueness('An account of this email address')
  const now = new Date(ctx.now)
  const record = await s.createScimUser({ id: crypto.randomUUID(), organizationId, userId: user.id, ...fields, createdAt: now, updatedAt: now, version: 1 })
  if (record === 'taken') {
    if (made) await adapter.deleteUser(user.id)
    throw uniqueness('The userName, or the account of this email address,')
  }
  if (record.active) await grant(ctx, caller, user.id, options.role)
  return answer(ctx, 201, record)
}

/**
 * What a later change from the IdP makes of the latchkey user: the name always (where it sends
 * one); the address only where the configuration says the IdP vouches for it, and never one
 * another account holds (409, checked before anything is stored).
 */
async function profileChanges(ctx: Context, options: ResolvedScim, current: ScimUserRecord, doc: Doc): Promise<Partial<AdapterUser> | null> {
  const adapter = useAdapter(ctx.config, ['getUser', 'getUserByEmail'], 'scim')
  const user = await adapter.getUser(current.userId)
  if (!user) return null
  const changes: Partial<AdapterUser> = {}
  const name = nameOf(doc)
  if (name !== null && name !== user.name) changes.name = name
  let email: string | null = null
  try {
    email = emailOf(doc)
  } catch {
    // No address in the new document: the user keeps theirs.
  }
  if (email && email !== user.email && (await options.vouches(current.organizationId, email))) {
    const holder = await adapter.getUserByEmail(email)
    if (holder && holder.id !== user.id) throw uniqueness('An account of this email address')
    changes.email = email
    changes.emailVerified = new Date(ctx.now)
  }
  return Object.keys(changes).length ? changes : null
}

async function applyProfile(ctx: Context, userId: string, changes: Partial<AdapterUser> | null): Promise<void> {
  if (!changes) return
  try {
    await useAdapter(ctx.config, ['updateUser'], 'scim').updateUser({ ...changes, id: userId })
  } catch (error) {
    // Another account took the address in between: the database's unique index said so.
    if (changes.email && (await useAdapter(ctx.config, ['getUserByEmail'], 'scim').getUserByEmail(changes.email))?.id !== userId) throw uniqueness('An account of this email address')
    throw error
  }
}

/** Stores a user's new document, provisioning or deprovisioning where `active` changed, and the latchkey user's name and address. */
async function save(ctx: Context, options: ResolvedScim, caller: Caller, current: ScimUserRecord, doc: Doc): Promise<Reply> {
  const fields = fieldsOf(doc)
  const profile = await profileChanges(ctx, options, current, doc)
  if (current.active && !fields.active) await deactivate(ctx, caller, current, false)
  if (!current.active && fields.active) await grant(ctx, caller, current.userId, await roleFor(ctx, options, caller, current.id))
  const saved = await store(ctx).updateScimUser(current.organizationId, current.id, { ...fields, updatedAt: new Date(ctx.now) })
  if (saved === 'taken') throw uniqueness('The userName')
  if (!saved) throw notFound('User')
  await applyProfile(ctx, current.userId, profile)
  return answer(ctx, 200, saved)
}

/** Deprovisions: the membership and its sessions end; said once, where the user was active. */
async function deactivate(ctx: Context, caller: Caller, current: ScimUserRecord, deleted: boolean): Promise<void> {
  await revoke(ctx, caller, current.userId)
  if (current.active) await fire(ctx, 'scimUserDeactivated', { organization: caller.organization, user: { id: current.id, userId: current.userId, userName: current.userName }, deleted, by: caller.token })
}

export async function replaceUser(ctx: Context, options: ResolvedScim, caller: Caller, id: string): Promise<Reply> {
  const body = await readScimBody(ctx)
  const current = await store(ctx).getScimUser(caller.organization.id, id)
  if (!current) throw notFound('User')
  return save(ctx, options, caller, current, normalizeResource(userKind, body))
}

export async function patchUser(ctx: Context, options: ResolvedScim, caller: Caller, id: string): Promise<Reply> {
  const body = await readScimBody(ctx)
  const current = await store(ctx).getScimUser(caller.organization.id, id)
  if (!current) throw notFound('User')
  return save(ctx, options, caller, current, applyPatch(userKind, docOf(current), body, id))
}

export async function deleteUser(ctx: Context, caller: Caller, id: string): Promise<Reply> {
  const s = store(ctx)
  const current = await s.getScimUser(caller.organization.id, id)
  if (!current) throw notFound('User')
  await deactivate(ctx, caller, current, true)
  await s.deleteScimUser(caller.organization.id, id)
  return scimReply(ctx, 204, null)
}
