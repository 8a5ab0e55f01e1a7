/**
 * The device authorization grant (RFC 8628), for CLIs and devices without a browser:
 * POST /oauth2/device_authorization answers a device code (high entropy, kept as its SHA-256)
 * and a user code (8 letters of an alphabet with no vowels and no look-alikes, shown XXXX-XXXX);
 * the user opens GET /oauth2/device (signing in first, any configured way), types the code (or
 * follows verification_uri_complete, which fills it in), and allows or denies the client on
 * the consent screen, which always asks: the code may have come from someone else (§5.4). The
 * device polls the token endpoint: authorization_pending, slow_down (the interval, kept in the
 * store, grows by 5 s for every poll that came too soon, whichever server it reached),
 * access_denied, expired_token, and the tokens once, for one poll only.
 */
import { enforceRateLimit, ensureCsrfToken, json, randomToken, readBody, redirect, sha256Hex, signedIn, type Body, type Context, type Reply } from 'latchkey/server'
import { authenticateClient, param, requestedScopes } from './clients.js'
import { checkedForm } from './consent-page.js'
import { devicePage, type DeviceView } from './device-page.js'
import { asOAuth, OAuthError } from './errors.js'
import { endpoint, oauthStore, serverOptions } from './instance.js'
import { deviceCodeGrant, type ResolvedClient } from './options.js'
import { purgeExpired } from './purge.js'
import type { DeviceAuthorization } from './device-store.js'
import type { Grant } from './store.js'

/** 20 consonants: no vowels (no words), none that reads as a digit or another letter (RFC 8628 §6.1). */
export const userCodeAlphabet = 'BCDFGHJKLMNPQRSTVWXZ'
const userCodeLength = 8
/** The rate-limit action counting the codes a user types. */
export const userCodeAction = 'oauthUserCode'

function newUserCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(userCodeLength))
  // 256 is not a multiple of 20: redraw the bytes past the last whole multiple, so each letter is as likely.
  let code = ''
  for (let i = 0; code.length < userCodeLength; i++) {
    const byte = i < bytes.length ? bytes[i]! : crypto.getRandomValues(new Uint8Array(1))[0]!
    if (byte < 240) code += userCodeAlphabet[byte % 20]
  }
  return code
}

/** As typed: case, spaces and dashes ignored. Null for what cannot be a user code. */
export function normalizeUserCode(typed: unknown): string | null {
  if (typeof typed !== 'string' || typed.length > 64) return null
  const code = typed.toUpperCase().replace(/[\s\-‐-―]/g, '')
  return code.length === userCodeLength && [...code].every((c) => userCodeAlphabet.includes(c)) ? code : null
}

export const shownUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`

/** POST /oauth2/device_authorization (RFC 8628 §3.1) */
export function deviceAuthorization(ctx: Context): Promise<Reply> {
  return asOAuth(ctx, async () => {
    const options = serverOptions.get(ctx.config)
    const body = await readBody(ctx.request, ctx.config.maxBodySize)
    const client = await authenticateClient(ctx, body, options)
    if (!client.grantTypes.includes(deviceCodeGrant)) throw new OAuthError('unauthorized_client', `This client may not use the device flow: add "${deviceCodeGrant}" to its grantTypes`)
    const scope = requestedScopes(client, param(body, 'scope')).join(' ')
    const resource = param(body, 'resource')
    if (resource === undefined) throw new OAuthError('invalid_target', `resource is missing: name the API the token is for, one of ${options.resources.join(', ')}`)
    if (!options.resources.includes(resource)) throw new OAuthError('invalid_target', 'resource is not one this server issues tokens for')
    const store = oauthStore(ctx.config)
    await purgeExpired(ctx)
    const deviceCode = randomToken(32)
    const record: DeviceAuthorization = {
      deviceHash: await sha256Hex(deviceCode),
      userCode: '',
      clientId: client.clientId,
      scope,
      resource,
      interval: options.devicePollInterval,
      expires: new Date(ctx.now + options.deviceCodeTtl * 1000),
      lastPollAt: null,
      status: 'pending',
      userId: null,
      authTime: null,
    }
    // A user code already out is drawn again (1 in 25 billion per code out).
    for (let tries = 0; ; tries++) {
      record.userCode = newUserCode()
      if (await store.createOAuthDevice(record)) break
      if (tries === 4) throw new Error('latchkey: no free user code after 5 draws')
    }
    const page = endpoint(ctx.config, 'device')
    return json(ctx, {
      device_code: deviceCode,
      user_code: shownUserCode(record.userCode),
      verification_uri: page,
      verification_uri_complete: `${page}?${new URLSearchParams({ user_code: shownUserCode(record.userCode) })}`,
      expires_in: options.deviceCodeTtl,
      interval: options.devicePollInterval,
    })
  })
}

/** The token endpoint's device_code grant (RFC 8628 §3.4, §3.5): the grant it starts, or the OAuth error to poll on. */
export async function deviceGrant(ctx: Context, client: ResolvedClient, body: Body): Promise<{ grant: Grant; scope: string }> {
  if (!client.grantTypes.includes(deviceCodeGrant)) throw new OAuthError('unauthorized_client', 'This client may not use the device flow')
  const deviceCode = param(body, 'device_code')
  if (deviceCode === undefined) throw new OAuthError('invalid_request', 'device_code is missing')
  const store = oauthStore(ctx.config)
  const deviceHash = await sha256Hex(deviceCode)
  const poll = await store.pollOAuthDevice(deviceHash, new Date(ctx.now))
  if (!poll || poll.device.clientId !== client.clientId) throw new OAuthError('invalid_grant', 'The device code is not one this server issued to this client')
  const { device } = poll
  if (device.status === 'used') throw new OAuthError('invalid_grant', 'The device code was used already')
  if (device.expires.getTime() <= ctx.now) throw new OAuthError('expired_token', 'The device code has expired; start again')
  if (poll.tooFast) throw new OAuthError('slow_down', `Polled too soon: wait ${device.interval} seconds between polls`)
  if (device.status === 'denied') throw new OAuthError('access_denied', 'The user did not allow the request')
  if (device.status === 'pending') throw new OAuthError('authorization_pending', 'The user has not answered yet')
  const spent = await store.spendOAuthDevice(deviceHash)
  if (!spent || spent.userId === null) throw new OAuthError('invalid_grant', 'The device code was used already')
  const grant: Grant = {
    id: randomToken(16),
    clientId: client.clientId,
    userId: spent.userId,
    scope: spent.scope,
    resource: spent.resource,
    codeHash: null,
    codeChallenge: null,
    redirectUri: null,
    authTime: spent.authTime,
    createdAt: new Date(ctx.now),
    revokedAt: null,
  }
  await store.createOAuthGrant(grant)
  return { grant, scope: grant.scope }
}

// ---------------------------------------------------------------- the user's page

const pageUrl = (ctx: Context, userCode?: string) => `${ctx.baseUrl}/oauth2/device${userCode ? `?${new URLSearchParams({ user_code: userCode })}` : ''}`

/** A pending, unexpired authorization of a configured client, for a code as typed; the typing counted against guessing. */
async function findPending(ctx: Context, typed: unknown, userId: string): Promise<{ device: DeviceAuthorization; client: ResolvedClient } | null> {
  await enforceRateLimit(ctx.config.rateLimit, ctx.request, userCodeAction, userId, ctx.now)
  const code = normalizeUserCode(typed)
  const device = code ? await oauthStore(ctx.config).getOAuthDeviceByUserCode(code) : null
  const client = device ? serverOptions.get(ctx.config).clients.get(device.clientId) : undefined
  if (!device || !client || device.status !== 'pending' || device.expires.getTime() <= ctx.now) return null
  return { device, client }
}

const account = (me: NonNullable<Awaited<ReturnType<typeof signedIn>>>) => me.user.email ?? me.user.name ?? me.user.id

/** GET /oauth2/device[?user_code=]: sign in first (coming back here), then the code's form, filled in from verification_uri_complete. */
export async function showDevicePage(ctx: Context): Promise<Reply> {
  const typed = ctx.url.searchParams.get('user_code') ?? undefined
  const me = await signedIn(ctx)
  const shown = typed === undefined ? undefined : normalizeUserCode(typed)
  if (!me) {
    const signIn = new URL(ctx.config.pages.signIn ?? `${ctx.baseUrl}/signin`, ctx.origin)
    signIn.searchParams.set('callbackUrl', pageUrl(ctx, shown ? shownUserCode(shown) : undefined))
    return redirect(ctx, signIn.href)
  }
  return devicePage(ctx, { step: 'enter', csrfToken: await ensureCsrfToken(ctx), userCode: shown ? shownUserCode(shown) : '', account: account(me) }, 200)
}

/** POST /oauth2/device: `user_code` (then the consent screen), or `user_code` and `decision` (allow or deny); CSRF-checked. */
export async function answerDevicePage(ctx: Context): Promise<Reply> {
  const form = await checkedForm(ctx, 'device page')
  if (form.refused) return form.refused
  const { body } = form
  const me = await signedIn(ctx)
  if (!me) return devicePage(ctx, { step: 'refused', why: 'requestExpired' }, 401)
  const csrfToken = await ensureCsrfToken(ctx)
  const decision = body.decision
  if (decision !== undefined && decision !== 'allow' && decision !== 'deny') return devicePage(ctx, { step: 'refused', why: 'requestInvalid' }, 400)
  const found = await findPending(ctx, body.user_code, me.user.id)
  const view: DeviceView = { step: 'enter', csrfToken, userCode: typeof body.user_code === 'string' ? body.user_code.slice(0, 64) : '', account: account(me), wrong: true }
  // One answer for a mistyped, unknown, expired or answered code: the page says nothing of which.
  if (!found) return devicePage(ctx, view, 400)
  const userCode = shownUserCode(found.device.userCode)
  if (decision === undefined) return devicePage(ctx, { step: 'consent', csrfToken, userCode, client: found.client, scope: found.device.scope, account: account(me) }, 200)
  const decided = await oauthStore(ctx.config).decideOAuthDevice(found.device.userCode, {
    status: decision === 'allow' ? 'allowed' : 'denied',
    userId: me.user.id,
    authTime: me.signedInAt === undefined ? null : new Date(me.signedInAt),
  })
  if (!decided) return devicePage(ctx, view, 400)
  return devicePage(ctx, { step: decision === 'allow' ? 'allowed' : 'denied', client: found.client }, 200)
}
