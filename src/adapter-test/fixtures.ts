/** What every part of the suite makes its records with: random values, so tests never collide. */
import { randomUUID } from 'node:crypto'
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterFactor, AdapterUser } from '../core/types.js'

/** The suite as each record kind's tests see it. */
export interface Suite {
  /** The adapter under test; set before the first test runs. */
  readonly adapter: Required<Adapter>
  /** Creates a user through the adapter and returns what it stored. */
  user(overrides?: Partial<AdapterUser>): Promise<AdapterUser>
}

export const unique = () => randomUUID().replaceAll('-', '').slice(0, 16)

/** A date in the future with a non-zero millisecond part, so truncation to seconds shows. */
export const later = (days: number) => new Date(Math.floor(Date.now() / 1000) * 1000 + days * 86_400_000 + 123)

export function newUser(overrides: Partial<AdapterUser> = {}): AdapterUser {
  const id = unique()
  return { id: randomUUID(), email: `user-${id}@example.test`, emailVerified: null, ...overrides }
}

export function account(userId: string, overrides: Partial<AdapterAccount> = {}): AdapterAccount {
  return { userId, type: 'oauth', provider: `provider-${unique()}`, providerAccountId: unique(), ...overrides }
}

export function authenticator(userId: string, overrides: Partial<AdapterAuthenticator> = {}): AdapterAuthenticator {
  return {
    credentialID: `cred-${unique()}`,
    credentialPublicKey: `key-${unique()}`,
    userId,
    providerAccountId: `cred-account-${unique()}`,
    counter: 0,
    credentialDeviceType: 'singleDevice',
    credentialBackedUp: false,
    ...overrides,
  }
}

/** An unconfirmed authenticator-app factor, made a second ago (with milliseconds, so truncation shows). */
export function factor(userId: string, overrides: Partial<AdapterFactor> = {}): AdapterFactor {
  return {
    id: `factor-${unique()}`,
    userId,
    type: 'totp',
    secret: `sealed-${unique()}`,
    confirmedAt: null,
    createdAt: new Date(Math.floor(Date.now() / 1000) * 1000 - 1000 + 123),
    lastUsedStep: null,
    label: null,
    ...overrides,
  }
}
