/**
 * Verified domains. A role with `domain:manage` (the owner's by default) claims a domain and gets
 * a TXT record to publish at `_latchkey-challenge.<domain>`; verifying looks it up (the resolver
 * injectable: dns.ts). Only the challenge's SHA-256 is stored, bound to the organization and the
 * domain, and dropped once verified. One organization at most verifies a domain (DomainTaken for
 * the others, by a unique index). A signed-in user whose *verified* address is at a verified domain
 * may then join with the domain's role (never above admin), or is made a member at sign-in where
 * the domain says `autoJoin`.
 */
import {
  AuthError,
  enforceRateLimit,
  json,
  randomToken,
  readAction,
  requireFresh,
  requireOwner,
  sha256Hex,
  timingSafeEqual,
  useAdapter,
  type AdapterUser,
  type Body,
  type Context,
  type Reply,
  type SignedIn,
  type User,
} from 'latchkey/server'
import { actor, eventView, membership, requirePermission, view, type Found } from './access.js'
import { setActive } from './active.js'
import { lookUpTxt } from './dns.js'
import { domainOfAddress, normalizeDomain } from './domain-name.js'
import { aboveOwnRole, alreadyMember, domainInvalid, domainNotFound, domainNotVerified, domainTaken, organizationNotFound } from './errors.js'
import { fire, type Actor } from './events.js'
import { readId } from './fields.js'
import type { Resolved } from './options.js'
import type { DomainRecord, DomainStore, MemberRecord, OrganizationStore } from './records.js'
import { domainManage } from './roles.js'
import { domainMethods, storeMethods } from './store.js'

/** Where the proof is published, and how its value starts. */
export const challengeLabel = '_latchkey-challenge'
const valuePrefix = 'latchkey-domain-verification='
/** An organization's claims, pending or verified: enough for any company, and the table stays bounded. */
const maxDomains = 50
/** The longest a verification waits for DNS. */
const lookupTimeout = 5000

const domains = (ctx: Context) => useAdapter<DomainStore & OrganizationStore>(ctx.config, [...domainMethods, ...storeMethods], 'organizations')

const invalid = (message: string) => new AuthError('InvalidRequest', message, { status: 400 })

const challengeHash = (organizationId: string, domain: string, token: string) => sha256Hex(`latchkey-organization-domain|${organizationId}|${domain}|${token}`)

export const domainView = (d: DomainRecord) => ({
  id: d.id,
  domain: d.domain,
  role: d.role,
  autoJoin: d.autoJoin,
  verified: d.verifiedAt !== null,
  verifiedAt: d.verifiedAt?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
})
const eventDomain = (d: DomainRecord) => ({ id: d.id, domain: d.domain, role: d.role, autoJoin: d.autoJoin })

function readDomain(options: Resolved, body: Body): string {
  const domain = normalizeDomain(Object.hasOwn(body, 'domain') ? body.domain : undefined, options.isPublicSuffix)
  if (!domain) throw domainInvalid()
  return domain
}

/** The role a domain gives: a known one, never owner, never above the caller's own. */
function readJoinRole(options: Resolved, body: Body, mine: string): string | undefined {
  if (!Object.hasOwn(body, 'role') || body.role === undefined) return undefined
  const roles = options.roles.names.filter((r) => options.roles.rank(r) <= 2)
  const role = body.role
  if (typeof role !== 'string' || !roles.includes(role)) throw invalid(`Expected "role": the role a user joining by the domain gets, one of ${roles.join(', ')}`)
  if (options.roles.rank(role) > options.roles.rank(mine)) throw aboveOwnRole()
  return role
}

function readAutoJoin(body: Body): boolean | undefined {
  const value = Object.hasOwn(body, 'autoJoin') ? body.autoJoin : undefined
  if (value === undefined) return undefined
  if (value === true || value === 'true') return true
  if (value === false || value === 'false') return false
  throw invalid('Expected "autoJoin": true or false')
}

/** GET /organization-domains/:id: the organization's domains, for a role with `domain:manage`. */
export async function listDomains(ctx: Context, options: Resolved, organizationId: string | undefined): Promise<Reply> {
  const me = await requireOwner(ctx)
  if (organizationId === undefined) throw organizationNotFound()
  const { member, organization } = await membership(ctx, organizationId, me.user.id)
  requirePermission(options, member, domainManage)
  return json(ctx, { domains: (await domains(ctx).listDomains(organization.id)).map(domainView) })
}

const domainActions = ['add', 'verify', 'update', 'remove'] as const

/** POST /organization-domains/:id: add, verify, update, remove. */
export async function domainsPost(ctx: Context, options: Resolved, organizationId: string | undefined): Promise<Reply> {
  const { body, action } = await readAction(ctx, domainActions)
  const me = await requireOwner(ctx)
  if (organizationId === undefined) throw organizationNotFound()
  const found = await membership(ctx, organizationId, me.user.id)
  requirePermission(options, found.member, domainManage)
  switch (action) {
    case 'add':
      return add(ctx, options, found, body)
    case 'verify':
      return verify(ctx, options, me, found, body)
    case 'update':
      return update(ctx, options, me, found, body)
    case 'remove':
      return remove(ctx, me, found, body)
  }
}

async function add(ctx: Context, options: Resolved, { member, organization }: Found, body: Body): Promise<Reply> {
  const domain = readDomain(options, body)
  const role = readJoinRole(options, body, member.role) ?? 'member'
  const autoJoin = readAutoJoin(body) ?? false
  const s = domains(ctx)
  const [held, listed] = await Promise.all([s.verifiedDomain(domain), s.listDomains(organization.id)])
  if (held && held.organizationId !== organization.id) throw domainTaken()
  if (listed.length >= maxDomains && !listed.some((d) => d.domain === domain)) throw invalid(`An organization claims at most ${maxDomains} domains: remove one first`)
  const token = randomToken(32)
  const record = await s.addDomain({
    id: crypto.randomUUID(),
    organizationId: organization.id,
    domain,
    role,
    autoJoin,
    verifiedAt: null,
    createdAt: new Date(ctx.now),
    challengeHash: await challengeHash(organization.id, domain, token),
  })
  // The value is shown here only: adding the domain again gives a new one.
  const txt = record.verifiedAt ? undefined : { name: `${challengeLabel}.${domain}`, type: 'TXT', value: `${valuePrefix}${token}` }
  return json(ctx, { ...domainView(record), ...(txt && { record: txt }) })
}

/** Whether one of `records` carries the value whose hash the challenge keeps. */
async function proves(records: string[], organizationId: string, domain: string, hash: string): Promise<boolean> {
  let found = false
  for (const record of records) {
    const value = record.trim()
    if (!value.startsWith(valuePrefix) || value.length > 200) continue
    if (timingSafeEqual(await challengeHash(organizationId, domain, value.slice(valuePrefix.length)), hash)) found = true
  }
  return found
}

async function verify(ctx: Context, options: Resolved, me: SignedIn, { organization }: Found, body: Body): Promise<Reply> {
  const domainId = readId(body, 'domainId')
  // Verifying opens the organization to the domain's users: as weighty as a change of owner.
  requireFresh(ctx, me.signedInAt)
  const s = domains(ctx)
  const claim = await s.getDomain(organization.id, domainId)
  if (!claim) throw domainNotFound()
  if (claim.verifiedAt) return json(ctx, domainView(claim))
  const held = await s.verifiedDomain(claim.domain)
  if (held && held.organizationId !== organization.id) throw domainTaken()
  // Each try is a DNS query the server makes: counted, so nobody drives lookups through it.
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'organizationDomainVerify', me.user.id, ctx.now)
  const name = `${challengeLabel}.${claim.domain}`
  const { records, failed } = await lookUpTxt(options.resolveTxt, name, lookupTimeout)
  if (failed) ctx.config.logger.warn(`organizations: the TXT lookup of ${name} failed (${failed}); the domain stays pending`)
  if (!claim.challengeHash || !(await proves(records, organization.id, claim.domain, claim.challengeHash))) throw domainNotVerified(name)
  const verified = await s.verifyDomain(organization.id, claim.id, new Date(ctx.now))
  if (verified === 'taken') throw domainTaken()
  if (!verified) throw domainNotFound()
  await fire(ctx, 'organizationDomainVerified', { organization: eventView(organization), domain: eventDomain(verified), by: actor(me) })
  return json(ctx, domainView(verified))
}

async function update(ctx: Context, options: Resolved, me: SignedIn, { member, organization }: Found, body: Body): Promise<Reply> {
  const domainId = readId(body, 'domainId')
  const changes = { role: readJoinRole(options, body, member.role), autoJoin: readAutoJoin(body) }
  if (changes.role === undefined && changes.autoJoin === undefined) throw invalid('Expected at least one of "role" or "autoJoin" to change')
  // Who joins, and as what: a fresh sign-in, as for verifying.
  requireFresh(ctx, me.signedInAt)
  const updated = await domains(ctx).updateDomain(organization.id, domainId, changes)
  if (!updated) throw domainNotFound()
  return json(ctx, domainView(updated))
}

async function remove(ctx: Context, me: SignedIn, { organization }: Found, body: Body): Promise<Reply> {
  const domainId = readId(body, 'domainId')
  const removed = await domains(ctx).removeDomain(organization.id, domainId)
  if (!removed) throw domainNotFound()
  await fire(ctx, 'organizationDomainRemoved', { organization: eventView(organization), domain: eventDomain(removed), by: actor(me) })
  return json(ctx, { removed: removed.id })
}

/** The user's address where it is proven, and its domain: the only way to join by domain. */
function provenDomain(user: Pick<AdapterUser, 'email' | 'emailVerified'>): string | null {
  return user.emailVerified && user.email ? domainOfAddress(user.email.toLowerCase()) : null
}

/** The organization `user` may join by their address's domain, with its domain record; null where none (or a member already). */
async function joinableFor(ctx: Context, user: AdapterUser) {
  const domain = provenDomain(user)
  if (!domain) return null
  const s = domains(ctx)
  const found = await s.verifiedDomain(domain)
  if (!found || (await s.getMember(found.organizationId, user.id))) return null
  return found
}

/** GET /organizations/joinable: the organizations the user's verified address lets them join. */
export async function joinable(ctx: Context): Promise<Reply> {
  const me = await requireOwner(ctx)
  const found = await joinableFor(ctx, me.user)
  return json(ctx, { organizations: found ? [{ ...view(found.organization, found.role), domain: found.domain }] : [] })
}

/** POST /organizations `join` `{ organizationId }`: joins by the verified address's domain, and makes it active. */
export async function join(ctx: Context, me: SignedIn, body: Body): Promise<Reply> {
  const organizationId = readId(body, 'organizationId')
  const domain = provenDomain(me.user)
  if (!domain) throw new AuthError('EmailNotVerified', 'Joining by domain needs a verified address: confirm yours first', { status: 403 })
  const s = domains(ctx)
  if (await s.getMember(organizationId, me.user.id)) throw alreadyMember()
  // No organization, another's domain, or none verified: one answer, so ids cannot be probed.
  const found = await s.verifiedDomain(domain)
  if (!found || found.organizationId !== organizationId) throw organizationNotFound()
  const member = await s.joinByDomain({ organizationId, domain, userId: me.user.id, memberId: crypto.randomUUID(), now: new Date(ctx.now) })
  if (!member) throw organizationNotFound()
  await setActive(ctx, me.read, member.id)
  await fire(ctx, 'organizationMemberAdded', { organization: eventView(found.organization), member: { userId: me.user.id, role: member.role }, via: 'domain', domain, by: actor(me) })
  return json(ctx, { organization: view(found.organization, member.role) })
}

/** `afterSignIn`: a user whose verified address is at a domain with `autoJoin` becomes a member; answers the membership made, if any. Never fails the sign-in. */
export async function autoJoin(ctx: Context, signIn: { user: AdapterUser | User }): Promise<MemberRecord | null> {
  try {
    const claimed = domainOfAddress(signIn.user.email?.toLowerCase())
    if (!claimed || !signIn.user.id) return null
    const s = domains(ctx)
    const found = await s.verifiedDomain(claimed)
    if (!found?.autoJoin) return null
    // The user as stored now: the sign-in may just have proven the address.
    const user = await ctx.config.adapter?.getUser?.(signIn.user.id)
    if (!user || provenDomain(user) !== claimed) return null
    const member = await s.joinByDomain({ organizationId: found.organizationId, domain: claimed, userId: user.id, memberId: crypto.randomUUID(), now: new Date(ctx.now) })
    if (!member) return null
    const by: Actor = { id: user.id, email: user.email ?? null }
    await fire(ctx, 'organizationMemberAdded', { organization: eventView(found.organization), member: { userId: user.id, role: member.role }, via: 'auto-join', domain: claimed, by })
    return member
  } catch (error) {
    ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)))
    return null
  }
}

/** What `organizationForDomain` answers: the organization that verified the domain. */
export interface DomainOrganization {
  id: string
  name: string
  slug: string
  logo: string | null
  domain: string
  role: string
  autoJoin: boolean
}

/** For other plugins (home-realm discovery): the organization that verified `domainOrAddress`'s domain; null where none, or not a domain. */
export async function organizationForDomain(ctx: Context, domainOrAddress: string): Promise<DomainOrganization | null> {
  const domain = typeof domainOrAddress === 'string' && domainOrAddress.includes('@') ? domainOfAddress(domainOrAddress.toLowerCase()) : normalizeDomain(domainOrAddress)
  if (!domain) return null
  const found = await domains(ctx).verifiedDomain(domain)
  if (!found) return null
  const { id, name, slug, logo } = found.organization
  return { id, name, slug, logo, domain: found.domain, role: found.role, autoJoin: found.autoJoin }
}
