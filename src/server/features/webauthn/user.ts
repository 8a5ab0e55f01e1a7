/** Who is asking: the signed-in user, and who a new registration is for. */
import type { AdapterUser, WebAuthnConfig } from '../../../core/types.js'
import { AuthError } from '../../../core/errors.js'
import { useAdapter } from '../../kernel/adapter-methods.js'
import type { Context } from '../../kernel/context.js'
import { normalizeEmail } from '../../kernel/address.js'
import { signedIn } from '../../kernel/manage.js'
import { WebAuthnRefusal } from './errors.js'

/** The signed-in user as stored, under either session strategy; null when signed out. */
export async function signedInUser(ctx: Context): Promise<AdapterUser | null> {
  return (await signedIn(ctx))?.user ?? null
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
