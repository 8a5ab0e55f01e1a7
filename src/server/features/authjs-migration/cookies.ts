/**
 * Auth.js's session cookies: next-auth 5 and `@auth/core` name theirs `authjs.session-token`,
 * next-auth 4 `next-auth.session-token`, each with `__Secure-` on https; a value over about 4 KB
 * is split into `<name>.0`, `<name>.1`, … which are joined in order.
 */
import { serializeCookie } from '../../kernel/cookies.js'
import type { Context } from '../../kernel/context.js'

export type Generation = 'v5' | 'v4'

export interface OldCookie {
  /** The cookie's name without a chunk suffix: next-auth 5 salts its key with it. */
  name: string
  generation: Generation
  value: string
}

/** In the order they are tried: the secure form first, as a browser on https sends both. */
const names: ReadonlyArray<readonly [string, Generation]> = [
  ['__Secure-authjs.session-token', 'v5'],
  ['authjs.session-token', 'v5'],
  ['__Secure-next-auth.session-token', 'v4'],
  ['next-auth.session-token', 'v4'],
]

/** The old session cookies the request carries, whole (chunks joined). */
export function oldCookies(ctx: Context): OldCookie[] {
  const found: OldCookie[] = []
  for (const [name, generation] of names) {
    const value = ctx.cookies.get(name) ?? joinedChunks(ctx.cookies, name)
    if (value) found.push({ name, generation, value })
  }
  return found
}

/** `<name>.0`, `<name>.1`, … joined while they run on without a gap; '' when there is no `.0`. */
function joinedChunks(cookies: Map<string, string>, name: string): string {
  let value = ''
  for (let i = 0; ; i++) {
    const chunk = cookies.get(`${name}.${i}`)
    if (chunk === undefined) return value
    value += chunk
  }
}

/** True when the request carries any old session cookie (or a piece of one). */
export function hasOldCookie(ctx: Context): boolean {
  for (const name of ctx.cookies.keys()) if (isOld(name)) return true
  return false
}

/** Clears every old session cookie the request carries, chunks included. */
export function clearOldCookies(ctx: Context): void {
  for (const name of ctx.cookies.keys()) {
    if (!isOld(name)) continue
    // A `__Secure-` cookie is only replaced by a Secure one.
    ctx.setCookies.push(serializeCookie(name, '', { secure: ctx.secure || name.startsWith('__Secure-'), expires: new Date(0), maxAge: 0 }))
  }
}

function isOld(name: string): boolean {
  for (const [base] of names) {
    if (name === base || (name.startsWith(base) && /^\.\d+$/.test(name.slice(base.length)))) return true
  }
  return false
}
