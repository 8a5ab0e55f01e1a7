/**
 * latchkey/adapter-test: the contract's rules as a vitest suite, so every adapter (ours or a
 * third party's) is held to the same behaviour. Call it from a test file:
 *
 *   runAdapterTests({ name: 'my store', adapter: () => MyAdapter(db), cleanup: () => db.close() })
 *
 * The adapter is created once per suite. Every test makes its own users, emails and tokens with
 * random values, so tests do not depend on each other and a shared database needs no wiping.
 *
 * One file per record kind (users.ts, accounts.ts, sessions.ts, verification-tokens.ts, verification-codes.ts,
 * authenticators.ts, factors.ts, passwords.ts), then the rules under concurrency (concurrency.ts), latchkey's additions to
 * the contract (extensions.ts) and the given plugins' own cases (plugins.ts); fixtures.ts makes the records.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Adapter, AdapterUser } from '../core/types.js'
import { accountTests } from './accounts.js'
import { authenticatorNameTests } from './authenticator-names.js'
import { authenticatorTests } from './authenticators.js'
import { concurrencyTests } from './concurrency.js'
import { extensionTests } from './extensions.js'
import { factorMethods, factorTests } from './factors.js'
import { newUser, type Suite } from './fixtures.js'
import { passwordMethods, passwordTests } from './passwords.js'
import { sessionTests } from './sessions.js'
import { userTests } from './users.js'
import { verificationCodeTests } from './verification-codes.js'
import { verificationTokenTests } from './verification-tokens.js'
import { pluginTests } from './plugins.js'
import type { SchemaPlugin } from '../adapters/plugin-schema.js'

export interface AdapterTestOptions {
  /** Shown in the suite's title. */
  name: string
  /** Makes the adapter under test; called once, before the first test. */
  adapter: () => Adapter | Promise<Adapter>
  /** Runs after the last test: close connections, drop schemas, delete folders. */
  cleanup?: () => Promise<void>
  /**
   * Plugins the adapter was made with (`LatchkeyPlugin.schema`): the suite checks their methods
   * are there and runs each one's own cases (`schema.tests`).
   */
  plugins?: readonly SchemaPlugin[]
}

/** The 18 methods of the contract plus latchkey's additions: `deleteAuthenticator`, `deleteSessionsByUserId`, `listSessionsByUserId`, `updateAccount` and `listAccountsByUserId`. */
export const adapterMethods = [
  'createUser',
  'getUser',
  'getUserByEmail',
  'getUserByAccount',
  'updateUser',
  'deleteUser',
  'linkAccount',
  'unlinkAccount',
  'getAccount',
  'createSession',
  'getSessionAndUser',
  'updateSession',
  'deleteSession',
  'createVerificationToken',
  'useVerificationToken',
  'createAuthenticator',
  'getAuthenticator',
  'listAuthenticatorsByUserId',
  'updateAuthenticatorCounter',
  'deleteAuthenticator',
  'deleteSessionsByUserId',
  'listSessionsByUserId',
  'updateAccount',
  'listAccountsByUserId',
] as const satisfies ReadonlyArray<keyof Adapter>

/** Additions an adapter may leave out (the server then does without); the suite tests each one an adapter has. */
export const optionalAdapterMethods = ['deleteVerificationTokens', 'createVerificationCode', 'useVerificationCode', 'deleteVerificationCodes', 'replaceSessionToken', 'updateAuthenticatorName', ...factorMethods, ...passwordMethods] as const satisfies ReadonlyArray<keyof Adapter>

export function runAdapterTests(options: AdapterTestOptions): void {
  describe(`adapter contract: ${options.name}`, () => {
    let adapter: Required<Adapter>

    beforeAll(async () => {
      adapter = (await options.adapter()) as Required<Adapter>
    })

    afterAll(async () => {
      await options.cleanup?.()
    })

    const suite: Suite = {
      get adapter() {
        return adapter
      },
      async user(overrides: Partial<AdapterUser> = {}) {
        return adapter.createUser(newUser(overrides))
      },
    }

    test("implements the 18 contract methods and latchkey's additions", () => {
      const missing = adapterMethods.filter((method) => typeof adapter[method] !== 'function')
      expect(missing).toEqual([])
    })

    userTests(suite)
    accountTests(suite)
    sessionTests(suite)
    verificationTokenTests(suite)
    verificationCodeTests(suite)
    authenticatorTests(suite)
    authenticatorNameTests(suite)
    factorTests(suite)
    passwordTests(suite)
    concurrencyTests(suite)
    extensionTests(suite)
    pluginTests(suite, options.plugins ?? [])
  })
}
