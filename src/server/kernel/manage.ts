/**
 * What the management routes share (/sessions, /accounts, /passkeys, and the factor routes to
 * come): the signed-in user (401), the adapter methods they use (501 `NotSupported` naming the
 * missing ones, never a 500), and one reader of a POST: the body, its CSRF token and `action`.
 * An action that removes a way in or ends a session adds `requireFresh` (fresh.ts).
 */
import type { Adapter, AdapterUser } from '../../core/types.js'
import { AuthError } from '../../core/errors.js'
import type { AdapterMethod } from './adapter-methods.js'
import { readBody, stringField, type Body } from './body.js'
import type { Context } from './context.js'
import { verifyCsrf } from './csrf.js'
import { readSession, type SessionRead } from './session.js'

/** The signed-in user, when they signed in (ms) and with which provider, where the store keeps them. */
export interface SignedIn {
  user: AdapterUser
  signedInAt?: number
  signInProvider?: string
  /** The session as read, for a route that writes it anew (`rewriteSessionUser`). */
  read: SessionRead
}

/** The signed-in user as stored, under either session strategy; null when signed out. */
export async function signedIn(ctx: Context): Promise<SignedIn | null> {
  const read = await readSession(ctx)
  const { signedInAt, signInProvider } = read
  if (read.user) return { user: read.user, signedInAt, signInProvider, read }
  const id = read.session?.user.id ?? read.token?.sub
  if (!id) return null
  const user = await managedAdapter(ctx, ['getUser'], 'Reading the signed-in user').getUser(id)
  return user ? { user, signedInAt, signInProvider, read } : null
}

/** The signed-in user, or 401 `AccessDenied`. */
export async function requireOwner(ctx: Context): Promise<SignedIn> {
  const me = await signedIn(ctx)
  if (!me) throw new AuthError('AccessDenied', 'Expected a signed-in user; sign in first', { status: 401 })
  return me
}

/** The adapter with `methods`, or 501 `NotSupported` naming those it lacks: `what` needs them. */
export function managedAdapter<M extends AdapterMethod>(ctx: Context, methods: M[], what: string): Required<Pick<Adapter, M>> {
  const adapter = ctx.config.adapter
  const missing = methods.filter((m) => typeof adapter?.[m] !== 'function')
  if (missing.length) throw new AuthError('NotSupported', `${what} needs the adapter method${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}`, { status: 501 })
  return adapter as Required<Pick<Adapter, M>>
}

/** A management POST: its body, CSRF-checked, and its `action`, one of `actions` (400 `InvalidRequest` otherwise). */
export async function readAction<A extends string>(ctx: Context, actions: readonly A[]): Promise<{ body: Body; action: A }> {
  const body = await readBody(ctx.request, ctx.config.maxBodySize)
  await verifyCsrf(ctx, body.csrfToken)
  const action = stringField(body, 'action')
  if (!actions.includes(action as A)) {
    throw new AuthError('InvalidRequest', `Expected "action" to be ${actions.join(' or ')}, got ${action ? 'another value' : 'none'}`)
  }
  return { body, action: action as A }
}
