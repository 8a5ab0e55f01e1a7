/**
 * The signed-in user's sessions, one per device: GET /sessions lists them, POST /sessions ends
 * one (`{ csrfToken, action: 'revoke', id }`) or all the others (`{ csrfToken, action:
 * 'revoke-others' }`). Ids are opaque: an HMAC of the stored token, never the token or its
 * hash. Ending another session needs a fresh one; ending this one is a sign-out.
 */
import type { AdapterSession, SessionInfo } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { stringField } from '../../kernel/body.js'
import type { Context } from '../../kernel/context.js'
import { hmacHex } from '../../kernel/crypto.js'
import { managedAdapter, readAction } from '../../kernel/manage.js'
import { deviceLabel } from '../../kernel/device-label.js'
import { requireFresh } from '../../kernel/fresh.js'
import { json, type Reply } from '../../kernel/respond.js'
import { destroySession, readSession } from '../../kernel/session.js'


const methods: Array<'listSessionsByUserId' | 'deleteSession'> = ['listSessionsByUserId', 'deleteSession']

export async function getSessions(ctx: Context): Promise<Reply> {
  const own = await ownSessions(ctx)
  return json(ctx, { sessions: await describe(ctx, own.list, own.current) })
}

export async function postSessions(ctx: Context): Promise<Reply> {
  const { body, action } = await readAction(ctx, ['revoke', 'revoke-others'])
  const own = await ownSessions(ctx)
  const adapter = managedAdapter(ctx, methods, 'Listing and ending sessions')
  let ending: AdapterSession[]
  if (action === 'revoke') {
    const id = stringField(body, 'id')
    if (!id) throw new AuthError('InvalidRequest', 'Expected the "id" of one of your sessions')
    const match = await findById(ctx, own.list, id)
    if (!match) throw new AuthError('InvalidRequest', 'None of your sessions has this id', { status: 404 })
    if (match.sessionToken === own.current.sessionToken) {
      // Ending this session is signing out here.
      const ended = await destroySession(ctx)
      await ctx.config.events.signOut?.({ session: ended.record, token: ended.token })
      return json(ctx, { sessions: [] })
    }
    ending = [match]
  } else {
    ending = own.list.filter((s) => s.sessionToken !== own.current.sessionToken)
  }
  // Ending other sessions is for the user who just proved who they are, not for a stolen session.
  requireFresh(ctx, own.signedInAt)
  for (const session of ending) await adapter.deleteSession(session.sessionToken)
  if (action === 'revoke-others') for (const plugin of ctx.config.plugins) await plugin.onSignOutEverywhere?.(ctx, { userId: own.current.userId })
  const left = own.list.filter((s) => !ending.includes(s))
  return json(ctx, { sessions: await describe(ctx, left, own.current) })
}

async function ownSessions(ctx: Context) {
  if (ctx.config.session.strategy !== 'database') {
    throw new AuthError('NotSupported', 'Listing and ending sessions needs the database session strategy (an adapter): JWT sessions are kept only in their cookies', { status: 501 })
  }
  const adapter = managedAdapter(ctx, methods, 'Listing and ending sessions')
  const read = await readSession(ctx)
  if (!read.user || !read.record) throw new AuthError('AccessDenied', 'Expected a signed-in user; sign in first', { status: 401 })
  const all = await adapter.listSessionsByUserId(read.user.id)
  const list = all.filter((s) => s.expires.getTime() > ctx.now)
  return { list, current: read.record, signedInAt: read.signedInAt }
}

/** The opaque id of a stored session, under one secret. */
const idOf = async (secret: string, stored: string) => (await hmacHex(secret, `session-id:${stored}`)).slice(0, 32)

async function findById(ctx: Context, list: AdapterSession[], id: string): Promise<AdapterSession | undefined> {
  for (const session of list) {
    // Every secret in rotation, so an id listed before a rotation still names its session.
    for (const secret of ctx.config.secrets) if ((await idOf(secret, session.sessionToken)) === id) return session
  }
  return undefined
}

function describe(ctx: Context, list: AdapterSession[], current: AdapterSession): Promise<SessionInfo[]> {
  const { maxAge } = ctx.config.session
  const sorted = [...list].sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0))
  return Promise.all(
    sorted.map(async (s) => ({
      id: await idOf(ctx.config.secrets[0], s.sessionToken),
      createdAt: s.createdAt?.toISOString() ?? null,
      lastSeenAt: new Date(s.expires.getTime() - maxAge * 1000).toISOString(),
      device: deviceLabel(s.userAgent),
      current: s.sessionToken === current.sessionToken,
    })),
  )
}
