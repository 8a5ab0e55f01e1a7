/**
 * Session reads, creation and removal for both strategies, under the in-step rule:
 * the cookie's expiry is the stored expiry, an access extends both only when due,
 * and an access after expiry deletes the record and clears the cookie.
 */
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser, DeviceBinding, JWT, Profile, Session, User } from '../../core/types.js'
import { AuthError } from '../../core/errors.js'
import { classifyAccess, nextExpiry } from '../../core/session-rule.js'
import { useAdapter } from './adapter-methods.js'
import { announceSession, clearSessionCookie, setSessionCookie, type Context } from './context.js'
import { randomToken } from './crypto.js'
import { seal, unseal, type Unsealed } from './jwt.js'
import type { AdoptedSessions, StartedSession } from './types.js'
import { carryUnproven, isUnproven, markUnproven, outlivedProof, withoutUnproven } from './unproven-session.js'
import { storedSessionToken, takenOverPrefix } from './session-token.js'

export interface SessionRead {
  session: Session | null
  /** The signed-in user, for routes that act on their own account (database strategy). */
  user?: AdapterUser
  token?: JWT
  /** The database record, for sign-out and update. */
  record?: AdapterSession
  /** When the session's sign-in happened (ms), where the store keeps it. */
  signedInAt?: number
  /** The provider the session's sign-in used, where the store keeps it. */
  signInProvider?: string
  /** A device-bound session whose short cookie is missing or lapsed: its binding id. No session is answered. */
  refresh?: string
  /** When the session ends (ms), as stored: what `Latchkey-Session` announces, whatever the callbacks made of `session.expires`. */
  expiresAt?: number
}

/**
 * What a sign-in over a held session of the same user keeps of it: its device binding, so signing
 * in again never unbinds; and, where the sign-in only linked a new way in (which proves that the
 * person holds the session, not who they are), its sign-in instant: no fresher than before.
 */
export interface Carried {
  signedInAt?: number
  deviceBinding?: DeviceBinding | null
}

/** How long after its sign-in a session may stay unbound where binding is required: time to register. */
const registrationGraceMs = 60_000

const sessionMethods: Array<'getSessionAndUser' | 'updateSession' | 'deleteSession'> = ['getSessionAndUser', 'updateSession', 'deleteSession']

const noSession: Promise<SessionRead> = Promise.resolve(Object.freeze({ session: null }))

/**
 * Reads the request's session, extending or removing it as the rule says; with `extend` false a
 * due session is answered as it is (no response will carry a new cookie). Not `async`: it only
 * picks the strategy.
 */
export function readSession(ctx: Context, extend = true): Promise<SessionRead> {
  const cookie = ctx.cookies.get(ctx.names.sessionToken)
  if (!cookie) return ctx.config.adoptedSessions ? readAdopted(ctx, ctx.config.adoptedSessions, extend) : noSession
  return ctx.config.session.strategy === 'database' ? readDatabaseSession(ctx, cookie, extend) : readJwtSession(ctx, cookie, extend)
}

/**
 * A session another library made (features/authjs-migration), read as latchkey's own once taken
 * over: the same rule, callbacks and refusals, and latchkey's cookie set on this response.
 */
async function readAdopted(ctx: Context, sessions: AdoptedSessions, extend: boolean): Promise<SessionRead> {
  const adopted = await sessions.adopt(ctx, extend)
  if (!adopted) return { session: null }
  if (!('payload' in adopted)) return readDatabaseSession(ctx, adopted.cookie, extend, adopted.sessionToken)
  try {
    return await readJwtSession(ctx, '', extend, adopted.payload)
  } catch (error) {
    // Claims too large for latchkey's one cookie (Auth.js chunks them): the user signs in again.
    if (!(error instanceof AuthError) || error.code !== 'Configuration') throw error
    ctx.config.logger.error(new AuthError('Configuration', `An old session was not taken over: ${error.message}`))
    clearSessionCookie(ctx)
    return { session: null }
  }
}

/** `stored`: the record's token, for a session just taken over (its cookie goes on this response whether due or not). */
async function readDatabaseSession(ctx: Context, cookie: string, extend: boolean, stored?: string): Promise<SessionRead> {
  const adapter = useAdapter(ctx.config, sessionMethods, 'database sessions')
  const { maxAge, updateAge } = ctx.config.session
  const sessionToken = stored ?? (await storedSessionToken(cookie))
  const found = await adapter.getSessionAndUser(sessionToken)
  if (!found) {
    clearSessionCookie(ctx)
    return { session: null }
  }
  let { session: record, user } = found
  const pluginData = record.pluginData
  const access = classifyAccess(ctx.now, record.expires.getTime(), maxAge, updateAge)
  if (access === 'expired') {
    await adapter.deleteSession(sessionToken)
    clearSessionCookie(ctx)
    return { session: null }
  }
  const bound = ctx.config.deviceBound
  const binding = bound ? record.deviceBinding : null
  if (binding && !(await ctx.config.binding?.proven(ctx, binding.id))) {
    // Bound to a device: without its short cookie, only the device's key can go on (POST /dbsc/refresh).
    return { session: null, record, refresh: binding.id }
  }
  if (bound?.requireFor && !binding && ctx.now - (record.createdAt?.getTime() ?? 0) > registrationGraceMs && bound.requireFor(user)) {
    // This user's sessions must be bound, and this one was not in time: it ends.
    await adapter.deleteSession(sessionToken)
    clearSessionCookie(ctx)
    return { session: null }
  }
  if (access === 'due' && extend) {
    const expires = new Date(nextExpiry(ctx.now, maxAge))
    const extended = await adapter.updateSession({ sessionToken, expires })
    // The contract allows the session, null or undefined. Only null says the record is gone
    // (deleted while we read it: a sign-out in another tab or server), and then it stays gone.
    // undefined is an adapter that does not read back (an UPDATE without RETURNING, as
    // @auth/pg-adapter's): the record has the expiry we asked for.
    if (extended === null) {
      clearSessionCookie(ctx)
      return { session: null }
    }
    record = extended ?? { ...record, expires }
    // What the read joined stays with the record, for a later look at it (POST /session).
    if (pluginData && !record.pluginData) record = { ...record, pluginData }
    setSessionCookie(ctx, cookie, record.expires.getTime())
  } else if (stored !== undefined && extend) setSessionCookie(ctx, cookie, record.expires.getTime())
  // Taken over (now or before): signed in elsewhere, so no sign-in instant nor factors of its own here.
  const takenOver = stored !== undefined || cookie.startsWith(takenOverPrefix)
  const signedInAt = takenOver ? undefined : record.createdAt?.getTime()
  const signInProvider = takenOver ? undefined : (record.signInProvider ?? undefined)
  const expiresAt = record.expires.getTime()
  const base: Session = { user: publicUser(user), expires: record.expires.toISOString() }
  if (signedInAt !== undefined) base.signedInAt = new Date(signedInAt).toISOString()
  if (record.amr && !takenOver) base.amr = record.amr
  // An account whose refresh the provider refused (access-token.ts): the app asks the user to sign in with it again.
  if (record.refreshError) base.error = 'RefreshAccessTokenError'
  if (ctx.config.sessionPlugins.length) await addPluginFields(ctx, base, { user, record, pluginData })
  const session = ctx.config.callbacks.session ? await ctx.config.callbacks.session({ session: base, user }) : base
  return { session, user, record, signedInAt, signInProvider, expiresAt }
}

/**
 * The JWT read awaits only what is asynchronous: jose for a token of another form, the callbacks,
 * the store for an unproven session, a re-issue. A plain read of latchkey's own token is
 * synchronous to its last line: each await costs a promise and a turn of the microtask queue.
 */
async function readJwtSession(ctx: Context, cookie: string, extend: boolean, adopted?: Unsealed<JWT>): Promise<SessionRead> {
  const { maxAge, updateAge } = ctx.config.session
  const nowSeconds = Math.floor(ctx.now / 1000)
  const cache = ctx.config.sessionTokens
  const salt = ctx.names.sessionToken
  let payload = adopted ?? cache.get(cookie, salt, nowSeconds)
  if (!payload) {
    // Synchronous for latchkey's own tokens: awaited only when jose reads it.
    const opened = unseal<JWT>(cookie, ctx.config.secrets, salt, nowSeconds)
    payload = (opened instanceof Promise ? await opened : opened) ?? undefined
    if (payload) cache.set(cookie, salt, payload)
  }
  if (!payload || (isUnproven(payload) && (await outlivedProof(ctx, payload)))) {
    clearSessionCookie(ctx)
    return { session: null }
  }
  let expires = payload.exp * 1000
  // The claims without the token's own times (a re-issue sets them anew): a plain loop, which V8
  // runs several times faster than an object rest pattern. A "__proto__" claim would set the
  // copy's prototype rather than a property, so it is left out.
  const claims: JWT = {}
  for (const name in payload) if (name !== 'exp' && name !== 'iat' && name !== '__proto__') claims[name] = payload[name]
  let token: JWT | null = claims
  const { jwt, session: sessionCallback } = ctx.config.callbacks
  if (jwt) {
    token = await jwt({ token })
    if (token) token = carryUnproven(claims, token)
    if (!token) {
      clearSessionCookie(ctx)
      return { session: null }
    }
  }
  if (extend && classifyAccess(ctx.now, expires, maxAge, updateAge) === 'due') {
    expires = nextExpiry(ctx.now, maxAge)
    await writeJwt(ctx, token, expires)
  } else if (adopted && extend) await writeJwt(ctx, token, expires)
  const base = jwtBase(token, expires)
  if (ctx.config.sessionPlugins.length) await addPluginFields(ctx, base, { token })
  const session = sessionCallback ? await sessionCallback({ session: base, token }) : base
  const signInProvider = typeof token.sign_in_provider === 'string' ? token.sign_in_provider : undefined
  return { session, token, signedInAt: authTimeOf(token), signInProvider, expiresAt: expires }
}

/**
 * The fields the plugins add to the session (`LatchkeyPlugin.sessionFields`), onto `base`: each
 * given what its schema read with the session, where the adapter read it.
 */
async function addPluginFields(ctx: Context, base: Session, read: { user?: AdapterUser; record?: AdapterSession; token?: JWT; pluginData?: Record<string, unknown> }): Promise<void> {
  for (const plugin of ctx.config.sessionPlugins) {
    const stored = read.pluginData && Object.hasOwn(read.pluginData, plugin.id) ? read.pluginData[plugin.id] : undefined
    const fields = await plugin.sessionFields!(ctx, { session: base, user: read.user, record: read.record, token: read.token, stored })
    if (!fields) continue
    for (const [name, value] of Object.entries(fields)) if (value !== undefined && name !== '__proto__') base[name] = value
  }
}

/** The `auth_time` claim (seconds) in milliseconds, when the token has one. */
function authTimeOf(token: JWT): number | undefined {
  return typeof token.auth_time === 'number' ? token.auth_time * 1000 : undefined
}

/** The session a JWT gives before the `session` callback. */
function jwtBase(token: JWT, expires: number): Session {
  const base: Session = {
    user: { id: token.sub, name: token.name ?? null, email: token.email ?? null, image: token.picture ?? null },
    expires: new Date(expires).toISOString(),
  }
  const signedInAt = authTimeOf(token)
  if (signedInAt !== undefined) base.signedInAt = new Date(signedInAt).toISOString()
  if (Array.isArray(token.amr)) base.amr = token.amr
  return base
}

/** Browsers drop a cookie over 4096 bytes without a word; refuse well before that. */
const maxCookieValue = 3800

async function writeJwt(ctx: Context, token: JWT, expires: number): Promise<void> {
  const value = await seal(token, ctx.config.secrets, ctx.names.sessionToken, { now: Math.floor(ctx.now / 1000), expires: expires / 1000 })
  if (value.length > maxCookieValue) {
    throw new AuthError('Configuration', `The session token is ${value.length} bytes, over the ${maxCookieValue} a cookie can carry; keep what the jwt callback adds small`, { status: 500 })
  }
  setSessionCookie(ctx, value, expires)
}

/** Starts a new session for a user who just signed in; always a new token. Answers the session started. */
export async function createSession(
  ctx: Context,
  user: AdapterUser | User,
  details: { account: AdapterAccount | null; profile?: Profile; isNewUser: boolean; provider?: string; carried?: Carried; amr?: string[] },
): Promise<StartedSession> {
  const expires = nextExpiry(ctx.now, ctx.config.session.maxAge)
  const { provider, carried } = details
  // A sign-in that linked over a held session is no fresher than that session (sign-in/complete.ts).
  const signedInAt = carried?.signedInAt ?? ctx.now
  if (ctx.config.session.strategy === 'database') {
    const adapter = useAdapter(ctx.config, ['createSession', 'deleteSession', 'updateSession'], 'database sessions')
    const cookie = ctx.config.session.generateSessionToken?.() ?? randomToken(32)
    const record = { sessionToken: await storedSessionToken(cookie), userId: user.id as string, expires: new Date(expires) }
    // latchkey's additions to the record (the sign-in instant for fresh-session checks, the
    // browser for the list of devices, the provider) go only to an adapter that keeps them: one
    // written for Auth.js may refuse fields it does not know (Prisma's does). There no session is fresh.
    const keeps = typeof ctx.config.adapter?.listSessionsByUserId === 'function'
    const userAgent = ctx.incoming.header('user-agent')?.slice(0, 512) || null
    const stored: AdapterSession = keeps ? { ...record, createdAt: new Date(signedInAt), userAgent, signInProvider: provider ?? null, ...(details.amr && { amr: details.amr }) } : record
    await adapter.createSession(stored)
    const replaced = ctx.cookies.get(ctx.names.sessionToken)
    setSessionCookie(ctx, cookie, expires)
    if (replaced && replaced !== cookie) await deleteReplacedSession(ctx, adapter, replaced)
    if (carried?.deviceBinding) {
      // The held session was bound: so is this one, to the same key (its bound cookie names the binding).
      await adapter.updateSession({ sessionToken: record.sessionToken, deviceBinding: carried.deviceBinding })
    } else await ctx.config.binding?.offer(ctx, cookie)
    return { record: stored, expiresAt: expires }
  }
  // auth_time (seconds, as in OpenID Connect): the sign-in instant, carried by every re-issue.
  let token: JWT | null = { sub: user.id, name: user.name ?? null, email: user.email ?? null, picture: user.image ?? null, auth_time: Math.floor(signedInAt / 1000) }
  if (provider) token.sign_in_provider = provider
  if (details.amr) token.amr = details.amr
  if (ctx.config.callbacks.jwt) {
    token = await ctx.config.callbacks.jwt({
      token,
      user,
      account: details.account,
      profile: details.profile,
      trigger: details.isNewUser ? 'signUp' : 'signIn',
      isNewUser: details.isNewUser,
    })
  }
  if (!token) throw new Error('The jwt callback returned no token at sign-in')
  const issued = markUnproven(ctx.config, user, token)
  await writeJwt(ctx, issued, expires)
  return { token: issued, expiresAt: expires }
}

/**
 * The browser signed in again over a session it still held: that session ends, so it cannot be
 * used again by whoever copied the old cookie. The new session is already made, and the old one
 * may be gone (expired and cleaned up, signed out elsewhere), so a failure here is logged and
 * does not fail the sign-in.
 */
async function deleteReplacedSession(ctx: Context, adapter: Required<Pick<Adapter, 'deleteSession'>>, cookie: string): Promise<void> {
  try {
    await adapter.deleteSession(await storedSessionToken(cookie))
  } catch (cause) {
    ctx.config.logger.error(new AuthError('AdapterError', 'Deleting the session this sign-in replaced failed; it ends at its expiry', { cause }))
  }
}

/** Ends the request's session: deletes the record (database) and clears the cookie; then each plugin's `onSignOut`. */
export async function destroySession(ctx: Context): Promise<{ record?: AdapterSession | null; token?: JWT | null }> {
  const held = ctx.cookies.has(ctx.names.sessionToken)
  const ended = await endSession(ctx)
  if (!held) return ended
  const userId = ended.record?.userId ?? ended.token?.sub ?? undefined
  for (const plugin of ctx.config.plugins) if (plugin.onSignOut) await plugin.onSignOut(ctx, { userId })
  return ended
}

async function endSession(ctx: Context): Promise<{ record?: AdapterSession | null; token?: JWT | null }> {
  const cookie = ctx.cookies.get(ctx.names.sessionToken)
  clearSessionCookie(ctx)
  // An old session not yet taken over ends too, or the next read would take it over.
  if (ctx.config.adoptedSessions) await ctx.config.adoptedSessions.end(ctx)
  if (!cookie) return {}
  if (ctx.config.session.strategy === 'database') {
    const adapter = useAdapter(ctx.config, ['deleteSession'], 'sign-out')
    const record = (await adapter.deleteSession(await storedSessionToken(cookie))) as AdapterSession | null | undefined
    return { record }
  }
  const token = await unseal<JWT>(cookie, ctx.config.secrets, ctx.names.sessionToken, Math.floor(ctx.now / 1000))
  return { token }
}

/** Applies POST /session's `data` through the callbacks and answers the new session. */
export async function updateSession(ctx: Context, data: unknown): Promise<Session | null> {
  const current = await readSession(ctx)
  if (!current.session) return null
  if (ctx.config.session.strategy === 'database') {
    const base: Session = { user: publicUser(current.user!), expires: current.session.expires }
    if (ctx.config.callbacks.session && ctx.config.sessionPlugins.length) await addPluginFields(ctx, base, { user: current.user, record: current.record, pluginData: current.record?.pluginData })
    return ctx.config.callbacks.session
      ? ctx.config.callbacks.session({ session: base, user: current.user, trigger: 'update', newSession: data })
      : current.session
  }
  const expires = Date.parse(current.session.expires)
  let token: JWT | null = current.token!
  if (ctx.config.callbacks.jwt) token = await ctx.config.callbacks.jwt({ token, trigger: 'update', session: data })
  if (!token) {
    clearSessionCookie(ctx)
    return null
  }
  token = carryUnproven(current.token!, token)
  await writeJwt(ctx, token, expires)
  const base = jwtBase(token, expires)
  if (ctx.config.sessionPlugins.length) await addPluginFields(ctx, base, { token })
  return ctx.config.callbacks.session ? ctx.config.callbacks.session({ session: base, token, trigger: 'update', newSession: data }) : base
}

/**
 * The signed-in user's name, image or address changed (features/identity). A database session
 * reads the stored user at each read: the answer only announces the session (`Latchkey-Session`),
 * so the browser's tabs read it anew. A JWT carries them: this browser's token (`read`, as read
 * before the change) is written anew with the stored user's, keeping its expiry. `proven`: the
 * address was just proven by this session's holder, so the token no longer waits for a proof
 * (unproven-session.ts). Other browsers' JWTs keep what they carry until they sign in again.
 */
export async function rewriteSessionUser(ctx: Context, read: SessionRead, user: AdapterUser, { proven = false } = {}): Promise<void> {
  if (read.expiresAt === undefined) return
  if (!read.token) return announceSession(ctx, read.expiresAt)
  if (read.token.sub !== user.id) return
  const token: JWT = { ...read.token, name: user.name ?? null, email: user.email ?? null, picture: user.image ?? null }
  await writeJwt(ctx, proven ? withoutUnproven(token) : token, read.expiresAt)
}

/**
 * Something the session carries changed for this browser's session (a plugin's state, such as
 * the active organization): the answer announces the session (`Latchkey-Session`), so every tab
 * reads it anew. A JWT is written anew with `claims` set (a claim given as undefined is removed),
 * keeping its expiry; a database session keeps its state in the store, so only the announcement
 * goes out. Nothing where `read` holds no session.
 */
export async function rewriteSessionClaims(ctx: Context, read: Pick<SessionRead, 'token' | 'expiresAt'>, claims: Record<string, unknown>): Promise<void> {
  if (read.expiresAt === undefined) return
  if (!read.token) return announceSession(ctx, read.expiresAt)
  const token: JWT = { ...read.token }
  for (const [name, value] of Object.entries(claims)) {
    if (name === '__proto__' || name === 'sub' || name === 'exp' || name === 'iat') continue
    if (value === undefined) delete token[name]
    else token[name] = value
  }
  await writeJwt(ctx, token, read.expiresAt)
}

function publicUser(user: AdapterUser): User {
  return { id: user.id, name: user.name ?? null, email: user.email, image: user.image ?? null }
}
