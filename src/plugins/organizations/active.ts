/**
 * The active organization: where a session keeps it, and how each read finds it live.
 * Database strategy: a row keyed by the stored session token names the membership, read in the
 * session's own query where the adapter joins it (`PluginSchema.sessionRead`), else by one more
 * query. JWT strategy: the token's `org_member` claim names the membership, looked up at each read
 * (one query). Either way a membership that is gone (removed, left, organization deleted) shows
 * no organization at the next read, on every server; a member invited again is a new membership,
 * so an old claim never comes back to life. A new session starts in the user's last active
 * membership (migration 3), by the same rule: one that is gone is never restored.
 */
import { rewriteSessionClaims, useAdapter, type Context, type SessionFieldsInput, type SessionRead, type SignedInNow } from 'latchkey/server'
import type { ActiveOrganization, LastActiveStore, MemberRecord, OrganizationStore } from './records.js'
import { lastActiveMethods, storeMethods } from './store.js'

/** The JWT claim that names the active membership. */
export const memberClaim = 'org_member'

export const store = (ctx: Context): OrganizationStore => useAdapter<OrganizationStore>(ctx.config, storeMethods, 'organizations')

/** The session's active organization, live; null where none. */
export async function activeOf(ctx: Context, read: Pick<SessionFieldsInput, 'record' | 'token' | 'stored'>): Promise<ActiveOrganization | null> {
  if (read.record) {
    if (read.stored !== undefined) return (read.stored as ActiveOrganization | null) ?? null
    return store(ctx).activeOrganization(read.record.sessionToken, read.record.userId)
  }
  const memberId = read.token?.[memberClaim]
  if (typeof memberId !== 'string' || !read.token?.sub) return null
  const member = await store(ctx).getMemberById(memberId)
  return member && member.userId === read.token.sub ? { id: member.organizationId, slug: member.slug, role: member.role } : null
}

/** What GET /session shows: `organization: { id, slug, role }`, absent where none. */
export async function sessionFields(ctx: Context, read: SessionFieldsInput): Promise<Record<string, unknown> | undefined> {
  const active = await activeOf(ctx, read)
  return active ? { organization: active } : undefined
}

const lastActive = (ctx: Context): LastActiveStore => useAdapter<LastActiveStore>(ctx.config, lastActiveMethods, 'organizations')

/** Puts `memberId`'s organization (or none) in this session: the store's row for a database session, the token's claim for a JWT. */
async function putInSession(ctx: Context, read: Pick<SessionRead, 'record' | 'token' | 'expiresAt'>, memberId: string | null): Promise<void> {
  if (read.record) await store(ctx).setActiveMember(read.record.sessionToken, memberId)
  await rewriteSessionClaims(ctx, read, { [memberClaim]: memberId ?? undefined })
}

/**
 * Makes `memberId`'s organization (or none) this browser's active one, and the user's last active
 * one, where their next sign-in starts. The answer carries `Latchkey-Session`, so the worker reads
 * the session anew and tells every tab. `memberId` is a membership of the signed-in user's: the
 * callers found it by their id (the store checks again).
 */
export async function setActive(ctx: Context, read: SessionRead, memberId: string | null): Promise<void> {
  await putInSession(ctx, read, memberId)
  const userId = read.record?.userId ?? read.token?.sub
  if (userId) await lastActive(ctx).setLastActiveMember(userId, memberId)
}

/**
 * `afterSignIn`: the new session starts in the organization the user last had active, where they
 * are still its member (the store reads it live); else in `joined`, the one auto-join just added
 * them to, which becomes their last active; else in none. Never fails the sign-in.
 */
export async function startIn(ctx: Context, signIn: SignedInNow, joined: MemberRecord | null): Promise<void> {
  try {
    const userId = signIn.user.id
    if (!userId) return
    const last = await lastActive(ctx).lastActiveMember(userId)
    const member = last ?? joined
    if (!member) return
    await putInSession(ctx, signIn.session, member.id)
    if (!last) await lastActive(ctx).setLastActiveMember(userId, member.id)
  } catch (error) {
    ctx.config.logger.error(error instanceof Error ? error : new Error(String(error)))
  }
}
