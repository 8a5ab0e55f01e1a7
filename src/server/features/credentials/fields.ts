/**
 * What a credentials sign-in hands to `authorize`, and the account it names. The per-account rate
 * limits count by the value `authorize` receives in the provider's account field, never by a
 * field the client chose to add; and every declared field must be a string, so an array or an
 * object cannot pass as "no account" to the count and still match a user in `authorize`.
 */
import { AuthError } from '../../../core/errors.js'
import type { CredentialInput, CredentialsConfig } from '../../../core/types.js'
import { stringField, type Body } from '../../kernel/body.js'

/** The protocol's own fields, which `authorize` does not receive. */
const reserved = new Set(['csrfToken', 'callbackUrl', 'json', 'redirect'])

export interface CredentialsFields {
  /** The body less the protocol's own fields, as `authorize` receives it. */
  credentials: Record<string, unknown>
  /** The account field's value (two with no declared fields); none when the request names none. */
  accounts: string[]
}

/** Throws InvalidRequest (400) when a declared or account field holds anything but a string. */
export function readCredentials(provider: CredentialsConfig<any>, body: Body): CredentialsFields {
  // fromEntries defines each field as the object's own, even one named "__proto__".
  const credentials = Object.fromEntries(Object.entries(body).filter(([name]) => !reserved.has(name)))
  const fields = accountFields(provider)
  for (const name of new Set([...Object.keys(provider.credentials ?? {}), ...fields])) stringField(credentials, name, { nullable: false })
  const accounts = fields.map((name) => credentials[name]).filter((value): value is string => typeof value === 'string')
  return { credentials, accounts }
}

/**
 * The field(s) naming the account: `accountField`; else the first declared field named
 * `username` or `email`; else the first declared field not of type `password`. With no fields
 * declared, `username` and `email` both count, so adding one cannot move the other's count.
 */
export function accountFields(provider: CredentialsConfig<any>): string[] {
  const { accountField } = provider
  if (accountField !== undefined) {
    if (typeof accountField !== 'string' || !accountField) {
      throw new AuthError('Configuration', `The accountField of "${provider.id}" must be a field name, got ${JSON.stringify(accountField)}`, { status: 500 })
    }
    return [accountField]
  }
  const declared: Array<[string, CredentialInput | undefined]> = Object.entries(provider.credentials ?? {})
  if (!declared.length) return ['username', 'email']
  const named = declared.find(([name]) => name === 'username' || name === 'email') ?? declared.find(([, input]) => input?.type !== 'password')
  return named ? [named[0]] : []
}
