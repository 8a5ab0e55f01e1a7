/**
 * Where a verified number lives: the user's linked account of the phone provider, `type: 'phone'`,
 * `providerAccountId` the E.164 number (written only once a code sent to it came back), found
 * again by `getUserByAccount`. The adapter contract's users need an email address, unique; a user
 * who signed up with a number has none, so gets a random address under `phone.invalid` (RFC 2606:
 * never delivered, never proven, matched by no other sign-in).
 */
import type { Adapter, AdapterAccount, SignInInput } from 'latchkey/server'

/** The domain of the addresses users who signed up by phone get in place of one. */
export const noEmailDomain = 'phone.invalid'

/** True for the address a user who signed up by phone was given in place of one: none to show or write to. */
export function isPhoneOnlyEmail(email: string | null | undefined): boolean {
  return typeof email === 'string' && email.endsWith(`@${noEmailDomain}`)
}

/** What the completion step signs in with: the number's account, and a new user's random address where it has none. */
export function signInWith(providerId: string, phone: string): SignInInput {
  return {
    // The completion step makes the user (its id too) only where the number has none.
    user: { email: `${crypto.randomUUID()}@${noEmailDomain}`, name: null, image: null },
    // `type` is the provider's own: the contract's account types are the built-in ones.
    account: { type: 'phone' as AdapterAccount['type'], provider: providerId, providerAccountId: phone, userId: '' },
    provider: providerId,
    // RFC 8176: a code sent by SMS.
    amr: ['sms'],
  }
}

/**
 * The user's verified number (E.164), or null: read from their phone account. For the `session`
 * callback of a database session (`session.user.phone = await phoneNumberOf(adapter, user.id)`);
 * a JWT session takes it in the `jwt` callback from `account.providerAccountId` at sign-in.
 * Needs the adapter's `listAccountsByUserId`; `provider`: the provider's id where it is not `phone`.
 */
export async function phoneNumberOf(adapter: Pick<Adapter, 'listAccountsByUserId'>, userId: string, provider = 'phone'): Promise<string | null> {
  if (!adapter.listAccountsByUserId) throw new TypeError('phoneNumberOf: the adapter has no listAccountsByUserId')
  const accounts = await adapter.listAccountsByUserId(userId)
  return accounts.find((a) => a.provider === provider && a.type === ('phone' as string))?.providerAccountId ?? null
}
