/**
 * The DBSC routes under basePath: POST /dbsc/register (a browser's, or latchkey's worker's, first
 * proof), POST /dbsc/refresh (a new short cookie for a proof), and GET /dbsc/challenge (the
 * worker asks for a registration challenge where the browser did not register by itself).
 */
import type { DeviceBinding } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { formatTiming, timing, timingHeader } from '../../../core/session-rule.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'
import { randomToken } from '../../kernel/crypto.js'
import { json, type Reply } from '../../kernel/respond.js'
import { enforceRateLimit } from '../../kernel/rate-limit/config.js'
import { readSession } from '../../kernel/session.js'
import { boundCookie, setBoundCookie } from './bound-cookie.js'
import { consumeDbscChallenge, issueDbscChallenge } from './challenge.js'
import { verifyRefreshProof, verifyRegistrationProof } from './proof.js'
import { askForProof } from './registration.js'
import { parseSfString } from './structured-fields.js'

const timingName = timingHeader.toLowerCase()

export async function getDbsc(ctx: Context, step: string | undefined): Promise<Reply> {
  const cookieMaxAge = enabled(ctx)
  if (step !== 'challenge') throw unknownStep()
  const { record, cookie } = await signedInRecord(ctx)
  // Per session (its stored token, a digest of the cookie) and per client.
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, 'dbscChallenge', record.sessionToken, ctx.now)
  if (record.deviceBinding) throw new AuthError('InvalidRequest', 'This session is already bound to a device', { status: 409 })
  return json(ctx, { challenge: await issueDbscChallenge(ctx, 'register', cookie), path: `${ctx.config.basePath}/dbsc/register`, cookieMaxAge })
}

export async function postDbsc(ctx: Context, step: string | undefined): Promise<Reply> {
  const cookieMaxAge = enabled(ctx)
  if (step === 'register') return register(ctx, cookieMaxAge)
  if (step === 'refresh') return refresh(ctx, cookieMaxAge)
  throw unknownStep()
}

async function register(ctx: Context, cookieMaxAge: number): Promise<Reply> {
  const { record, cookie } = await signedInRecord(ctx)
  if (record.deviceBinding) throw new AuthError('InvalidRequest', 'This session is already bound to a device', { status: 409 })
  const proof = parseSfString(ctx.incoming.header('secure-session-response'))
  if (!proof) throw new AuthError('InvalidRequest', 'Expected the proof in a Secure-Session-Response header (a structured-field string)')
  const { jti, jwk } = await verifyRegistrationProof(proof)
  if (!(await consumeDbscChallenge(ctx, 'register', cookie, jti))) throw refused('the proof signs a challenge this session was not given, or one already used')
  const binding: DeviceBinding = { id: randomToken(16), jwk }
  const adapter = useAdapter(ctx.config, ['updateSession', 'getSessionAndUser'], 'device-bound sessions')
  const updated = await adapter.updateSession({ sessionToken: record.sessionToken, deviceBinding: binding })
  if (updated === null) throw refused('the session ended meanwhile')
  // A store that drops the field would leave the session unbound while the browser thinks it is bound.
  const kept = updated?.deviceBinding ?? (await adapter.getSessionAndUser(record.sessionToken))?.session.deviceBinding
  if (kept?.id !== binding.id) {
    throw new AuthError('Configuration', "The adapter did not keep the session's deviceBinding: device-bound sessions need an adapter that stores it, as latchkey's do", { status: 500 })
  }
  const until = await setBoundCookie(ctx, binding.id, cookieMaxAge)
  announce(ctx, record.expires.getTime(), until)
  return json(ctx, instructions(ctx, binding.id))
}

async function refresh(ctx: Context, cookieMaxAge: number): Promise<Reply> {
  // A browser sends Sec-Secure-Session-Id, which no script may set; latchkey's worker, which may
  // not set a Sec- header, sends Latchkey-Session-Id. Either needs a CORS preflight cross-site,
  // which is refused, so no other site can start a refresh.
  const id = parseSfString(ctx.incoming.header('sec-secure-session-id') ?? ctx.incoming.header('latchkey-session-id'))
  if (!id) throw new AuthError('InvalidRequest', 'Expected the session id in a Sec-Secure-Session-Id (or Latchkey-Session-Id) header, a structured-field string')
  const { record, cookie } = await signedInRecord(ctx)
  const binding = record.deviceBinding
  if (!binding || binding.id !== id) throw refused('no session bound to a device under this id is signed in here')
  const proof = parseSfString(ctx.incoming.header('secure-session-response'))
  if (!proof) {
    await askForProof(ctx, cookie, binding.id)
    return json(ctx, { error: 'SessionRefreshRequired', message: 'Sign the challenge with the session key' }, 403)
  }
  const jti = await verifyRefreshProof(proof, binding.jwk)
  if (!(await consumeDbscChallenge(ctx, 'refresh', cookie, jti))) {
    // A stale or replayed challenge: the device may sign a new one.
    await askForProof(ctx, cookie, binding.id)
    return json(ctx, { error: 'SessionRefreshRequired', message: 'The proof signs a challenge that is unknown, used or expired; sign this one' }, 403)
  }
  const until = await setBoundCookie(ctx, binding.id, cookieMaxAge)
  announce(ctx, record.expires.getTime(), until)
  return json(ctx, instructions(ctx, binding.id))
}

/** The signed-in session's record, bound cookie or not, and the cookie that names it. */
async function signedInRecord(ctx: Context) {
  const cookie = ctx.cookies.get(ctx.names.sessionToken)
  const read = cookie ? await readSession(ctx, false) : undefined
  if (!cookie || !read?.record) throw new AuthError('AccessDenied', 'Expected a signed-in session', { status: 401 })
  return { record: read.record, cookie }
}

/** The session instructions of the specification: the session, where to refresh it, what it covers. */
function instructions(ctx: Context, id: string) {
  const attributes = `Path=/; HttpOnly; SameSite=Lax${ctx.secure ? '; Secure' : ''}`
  return {
    session_identifier: id,
    refresh_url: `${ctx.config.basePath}/dbsc/refresh`,
    scope: { origin: ctx.origin, include_site: false },
    credentials: [{ type: 'cookie', name: boundCookie.of(ctx), attributes }],
  }
}

/** The timing header, with the bound cookie's expiry, for the worker. */
function announce(ctx: Context, expires: number, bound: number): void {
  const { maxAge, updateAge } = ctx.config.session
  ctx.headers[timingName] = `${formatTiming(timing(expires, maxAge, updateAge))}; bound=${bound}`
}

function enabled(ctx: Context): number {
  if (!ctx.config.deviceBound) throw new AuthError('UnknownAction', 'Device-bound sessions are off: set session.deviceBound', { status: 404 })
  return ctx.config.deviceBound.cookieMaxAge
}

function unknownStep(): AuthError {
  return new AuthError('UnknownAction', 'Expected /dbsc/register, /dbsc/refresh (POST) or /dbsc/challenge (GET)', { status: 404 })
}

function refused(why: string): AuthError {
  return new AuthError('AccessDenied', `Device-bound session refused: ${why}`, { status: 403 })
}
