/** Who is asking: the signed-in user, and who a new registration is for. */
import type { AdapterUser, WebAuthnConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'
import { normalizeEmail } from '../email/link.js'
import { readSession } from '../../kernel/session.js'
import { WebAuthnRefusal } from './errors.js'

/** The signed-in user as stored, under either session strategy; null when signed out. */
export async function signedInUser(ctx: Context): Promise<AdapterUser | null> {
  return (await signedIn(ctx))?.user ?? null
}

/** The signed-in user, when they signed in (ms) and with which provider, where the store keeps them. */
export interface SignedIn {
  user: AdapterUser
  signedInAt?: number
  signInProvider?: string
}

/** The signed-in user under either session strategy; null when signed out. */
export async function signedIn(ctx: Context): Promise<SignedIn | null> {
  const read = await readSession(ctx)
  const { signedInAt, signInProvider } = read
  if (read.user) return { user: read.user, signedInAt, signInProvider }
  const id = read.session?.user.id ?? read.token?.sub
  const user = id ? await useAdapter(ctx.config, ['getUser'], 'passkeys').getUser(id) : null
  return user ? { user, signedInAt, signInProvider } : null
}

export async function requireSignedIn(ctx: Context): Promise<AdapterUser> {
  const user = await signedInUser(ctx)
  if (!user) throw new WebAuthnRefusal('signed-out', 'Expected a signed-in user; sign in first', { status: 401, type: 'AccessDenied' })
  return user
}

/**
 * Who a new passkey is for, from the provider's `getUserInfo` hook or, by default, the `email`
 * query parameter (normalised as email sign-in does, so both find the same user).
 */
export async function newUserInfo(ctx: Context, provider: WebAuthnConfig): Promise<{ email: string; name: string | null }> {
  let info: { email: string; name?: string | null } | null
  if (provider.getUserInfo) {
    try {
      info = await provider.getUserInfo(ctx.request)
    } catch (cause) {
      throw new AuthError('Configuration', `The getUserInfo hook of "${provider.id}" threw`, { cause, status: 500 })
    }
  } else {
    const email = ctx.url.searchParams.get('email')
    info = email ? { email } : null
  }
  if (!info?.email) throw new WebAuthnRefusal('invalid', 'Expected an email address (the "email" query parameter) to register a new passkey', { type: 'InvalidRequest' })
  let email: string
  try {
    email = normalizeEmail(info.email)
  } catch {
    throw new WebAuthnRefusal('invalid', 'Expected an email address like name@example.com to register a new passkey', { type: 'InvalidRequest' })
  }
  return { email, name: info.name ?? null }
}

/** The optional `email` of an authentication request, normalised; undefined when absent. */
export function emailParam(ctx: Context): string | undefined {
  const raw = ctx.url.searchParams.get('email')
  if (!raw) return undefined
  try {
    return normalizeEmail(raw)
  } catch {
    throw new WebAuthnRefusal('invalid', 'Expected an email address like name@example.com in the "email" parameter', { type: 'InvalidRequest' })
  }
}
