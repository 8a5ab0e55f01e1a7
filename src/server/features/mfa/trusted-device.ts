/**
 * "Don't ask again on this device": after a second factor, the browser may keep a sealed cookie
 * naming the user and a device record (a factor of type `device`), so that user's next sign-ins
 * here skip the second step until `trustDevices` seconds have passed. The record holds a hash of
 * the cookie's token and of the user's factors at the time: adding or removing an authenticator
 * app or a passkey voids every trusted device, a password reset forgets them all, and the user can
 * forget any of them (GET/POST /mfa).
 */
import type { AdapterFactor } from '../../../core/types.js'
import { clearCookie, setCookie, type Context } from '../../kernel/context.js'
import { randomToken, sha256Hex } from '../../kernel/crypto.js'
import { seal, unseal } from '../../kernel/jwt.js'
import { deviceLabel } from '../../kernel/device-label.js'
import { factorStore } from './store.js'
import { deviceCookie } from './cookies.js'

interface DeviceCookie {
  userId: string
  id: string
  token: string
}

/** A trusted device as the user sees it. */
export interface TrustedDeviceInfo {
  id: string
  device: string
  createdAt: string
  expiresAt: string
  /** This browser. */
  current: boolean
}

/** What the user's second factors are now: their ids, hashed; a trusted device made under others is void. */
async function fingerprint(ctx: Context, userId: string, factors: AdapterFactor[]): Promise<string> {
  const ids = factors.filter((f) => f.type === 'totp' && f.confirmedAt).map((f) => `totp:${f.id}`)
  const keys = ctx.config.keyProofs
  if (keys) for (const id of await keys.keys(ctx, userId, 'trusted devices')) ids.push(`key:${id}`)
  return (await sha256Hex(ids.sort().join('\n'))).slice(0, 32)
}

const recordSecret = async (token: string, print: string) => `${await sha256Hex(`trusted-device:${token}`)}.${print}`

/** Trusts this browser for `userId` for `maxAge` seconds: a device record and its cookie (replacing one this browser had). */
export async function trustDevice(ctx: Context, userId: string, maxAge: number): Promise<void> {
  const store = factorStore(ctx)
  const factors = await store.listFactorsByUserId(userId)
  const old = await readCookie(ctx)
  if (old?.userId === userId && factors.some((f) => f.id === old.id && f.type === 'device')) await store.deleteFactor(old.id)
  const token = randomToken(32)
  const secret = await recordSecret(token, await fingerprint(ctx, userId, factors))
  const id = crypto.randomUUID()
  const label = deviceLabel(ctx.incoming.header('user-agent') ?? undefined).slice(0, 64)
  await store.createFactor({ id, userId, type: 'device', secret, confirmedAt: new Date(ctx.now), createdAt: new Date(ctx.now), lastUsedStep: null, label })
  const until = ctx.now + maxAge * 1000
  const value = await seal({ userId, id, token } satisfies DeviceCookie, ctx.config.secrets, deviceCookie.of(ctx), { now: Math.floor(ctx.now / 1000), expires: Math.ceil(until / 1000) })
  setCookie(ctx, deviceCookie.of(ctx), value, { expires: new Date(until) })
}

/** Whether this browser is trusted for `userId`: its cookie, its record unexpired, and the user's factors unchanged. */
export async function isTrustedDevice(ctx: Context, userId: string, maxAge: number): Promise<boolean> {
  const cookie = await readCookie(ctx)
  if (!cookie || cookie.userId !== userId) return false
  const factors = await factorStore(ctx).listFactorsByUserId(userId)
  const record = factors.find((f) => f.id === cookie.id && f.type === 'device')
  if (!record) return false
  const print = await fingerprint(ctx, userId, factors)
  if (!(await stillValid(ctx, record, print, maxAge))) return false
  return record.secret === (await recordSecret(cookie.token, print))
}

/** The user's trusted devices, newest first; void ones (expired, or made under other factors) are deleted on the way. */
export async function listTrustedDevices(ctx: Context, userId: string, maxAge: number): Promise<TrustedDeviceInfo[]> {
  const factors = await factorStore(ctx).listFactorsByUserId(userId)
  const devices = factors.filter((f) => f.type === 'device')
  if (!devices.length) return []
  const print = await fingerprint(ctx, userId, factors)
  const here = (await readCookie(ctx))?.id
  const list: TrustedDeviceInfo[] = []
  for (const d of devices) {
    if (!(await stillValid(ctx, d, print, maxAge))) continue
    list.push({ id: d.id, device: d.label ?? 'Unknown device', createdAt: d.createdAt.toISOString(), expiresAt: new Date(d.createdAt.getTime() + maxAge * 1000).toISOString(), current: d.id === here })
  }
  return list.sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

/** Forgets one of the user's trusted devices (false: no such device of theirs); this browser's cookie goes with its own. */
export async function forgetDevice(ctx: Context, userId: string, id: string): Promise<boolean> {
  const store = factorStore(ctx)
  const record = (await store.listFactorsByUserId(userId)).find((f) => f.id === id && f.type === 'device')
  if (!record) return false
  await store.deleteFactor(record.id)
  if ((await readCookie(ctx))?.id === id) clearCookie(ctx, deviceCookie.of(ctx))
  return true
}

/** Forgets every trusted device of the user (a password reset: a thief's copied device cookie must not skip the step). */
export async function forgetAllDevices(ctx: Context, userId: string): Promise<void> {
  const store = factorStore(ctx)
  for (const f of await store.listFactorsByUserId(userId)) if (f.type === 'device') await store.deleteFactor(f.id)
  if ((await readCookie(ctx))?.userId === userId) clearCookie(ctx, deviceCookie.of(ctx))
}

/** Unexpired and made under the factors the user has now; a void record is deleted. */
async function stillValid(ctx: Context, record: AdapterFactor, print: string, maxAge: number): Promise<boolean> {
  const valid = record.createdAt.getTime() + maxAge * 1000 > ctx.now && record.secret.endsWith(`.${print}`)
  if (!valid) await factorStore(ctx).deleteFactor(record.id)
  return valid
}

async function readCookie(ctx: Context): Promise<DeviceCookie | undefined> {
  const raw = ctx.cookies.get(deviceCookie.of(ctx))
  if (!raw) return
  const opened = await unseal<DeviceCookie>(raw, ctx.config.secrets, deviceCookie.of(ctx), Math.floor(ctx.now / 1000))
  return opened && typeof opened.userId === 'string' && typeof opened.id === 'string' && typeof opened.token === 'string' ? opened : undefined
}
