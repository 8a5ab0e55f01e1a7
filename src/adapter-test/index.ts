/**
 * latchkey/adapter-test: the contract's rules as a vitest suite, so every adapter (ours or a
 * third party's) is held to the same behaviour. Call it from a test file:
 *
 *   runAdapterTests({ name: 'my store', adapter: () => MyAdapter(db), cleanup: () => db.close() })
 *
 * The adapter is created once per suite. Every test makes its own users, emails and tokens with
 * random values, so tests do not depend on each other and a shared database needs no wiping.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser } from '../core/types.js'

export interface AdapterTestOptions {
  /** Shown in the suite's title. */
  name: string
  /** Makes the adapter under test; called once, before the first test. */
  adapter: () => Adapter | Promise<Adapter>
  /** Runs after the last test: close connections, drop schemas, delete folders. */
  cleanup?: () => Promise<void>
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
export const optionalAdapterMethods = ['deleteVerificationTokens'] as const satisfies ReadonlyArray<keyof Adapter>

const unique = () => randomUUID().replaceAll('-', '').slice(0, 16)

/** A date in the future with a non-zero millisecond part, so truncation to seconds shows. */
const later = (days: number) => new Date(Math.floor(Date.now() / 1000) * 1000 + days * 86_400_000 + 123)

function newUser(overrides: Partial<AdapterUser> = {}): AdapterUser {
  const id = unique()
  return { id: randomUUID(), email: `user-${id}@example.test`, emailVerified: null, ...overrides }
}

export function runAdapterTests(options: AdapterTestOptions): void {
  describe(`adapter contract: ${options.name}`, () => {
    let adapter: Required<Adapter>

    beforeAll(async () => {
      adapter = (await options.adapter()) as Required<Adapter>
    })

    afterAll(async () => {
      await options.cleanup?.()
    })

    /** Creates a user through the adapter and returns what it stored. */
    async function user(overrides: Partial<AdapterUser> = {}): Promise<AdapterUser> {
      return adapter.createUser(newUser(overrides))
    }

    function account(userId: string, overrides: Partial<AdapterAccount> = {}): AdapterAccount {
      return { userId, type: 'oauth', provider: `provider-${unique()}`, providerAccountId: unique(), ...overrides }
    }

    function authenticator(userId: string, overrides: Partial<AdapterAuthenticator> = {}): AdapterAuthenticator {
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

    test("implements the 18 contract methods and latchkey's additions", () => {
      const missing = adapterMethods.filter((method) => typeof adapter[method] !== 'function')
      expect(missing).toEqual([])
    })

    describe('users', () => {
      test('createUser returns the user with its id, email and a null emailVerified', async () => {
        const input = newUser()
        const created = await adapter.createUser(input)
        expect(typeof created.id).toBe('string')
        expect(created.id.length).toBeGreaterThan(0)
        expect(created.email).toBe(input.email)
        expect(created.emailVerified).toBeNull()
        expect(created.name ?? null).toBeNull()
        expect(created.image ?? null).toBeNull()
        expect(await adapter.getUser(created.id)).toEqual(created)
      })

      test('createUser keeps name, image and emailVerified to the millisecond', async () => {
        const emailVerified = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678))
        const created = await user({ name: 'Ada Lovelace', image: 'https://img.example.test/ada.png', emailVerified })
        const read = await adapter.getUser(created.id)
        expect(read?.name).toBe('Ada Lovelace')
        expect(read?.image).toBe('https://img.example.test/ada.png')
        expect(read?.emailVerified).toBeInstanceOf(Date)
        expect(read?.emailVerified?.getTime()).toBe(emailVerified.getTime())
      })

      test('createUser keeps name and image given as null as null', async () => {
        const created = await user({ name: null, image: null })
        const read = await adapter.getUser(created.id)
        expect(read?.name).toBeNull()
        expect(read?.image).toBeNull()
      })

      test('getUser returns null for an unknown id', async () => {
        expect(await adapter.getUser(randomUUID())).toBeNull()
      })

      test('getUserByEmail finds the user, and returns null for an unknown email', async () => {
        const created = await user()
        expect((await adapter.getUserByEmail(created.email))?.id).toBe(created.id)
        expect(await adapter.getUserByEmail(`nobody-${unique()}@example.test`)).toBeNull()
      })

      test('createUser with an email already taken throws and leaves the first user intact', async () => {
        const first = await user({ name: 'First' })
        await expect(adapter.createUser(newUser({ email: first.email, name: 'Second' }))).rejects.toThrow()
        const found = await adapter.getUserByEmail(first.email)
        expect(found?.id).toBe(first.id)
        expect(found?.name).toBe('First')
      })

      test('updateUser changes only the fields given and returns the user', async () => {
        const created = await user({ name: 'Before', image: 'https://img.example.test/before.png' })
        const emailVerified = new Date(Date.UTC(2026, 4, 6, 7, 8, 9, 10))
        const updated = await adapter.updateUser({ id: created.id, name: 'After', emailVerified })
        expect(updated.id).toBe(created.id)
        expect(updated.name).toBe('After')
        expect(updated.image).toBe('https://img.example.test/before.png')
        expect(updated.email).toBe(created.email)
        expect(updated.emailVerified?.getTime()).toBe(emailVerified.getTime())
        expect(await adapter.getUser(created.id)).toEqual(updated)
      })

      test('updateUser sets a field to null and changes the email', async () => {
        const created = await user({ name: 'Named' })
        const email = `moved-${unique()}@example.test`
        const updated = await adapter.updateUser({ id: created.id, name: null, email })
        expect(updated.name).toBeNull()
        expect(updated.email).toBe(email)
        expect((await adapter.getUserByEmail(email))?.id).toBe(created.id)
        expect(await adapter.getUserByEmail(created.email)).toBeNull()
      })

      test('updateUser treats a field given as undefined as not given', async () => {
        const created = await user({ name: 'Stays', image: 'https://img.example.test/stays.png' })
        const updated = await adapter.updateUser({ id: created.id, name: undefined, image: 'https://img.example.test/new.png' })
        expect(updated.name).toBe('Stays')
        expect((await adapter.getUser(created.id))?.name).toBe('Stays')
        expect((await adapter.getUser(created.id))?.image).toBe('https://img.example.test/new.png')
      })

      test('updateUser throws for an unknown user', async () => {
        await expect(adapter.updateUser({ id: randomUUID(), name: 'Ghost' })).rejects.toThrow()
      })

      test("updateUser to another user's email throws and changes nothing", async () => {
        const a = await user()
        const b = await user({ name: 'B' })
        await expect(adapter.updateUser({ id: b.id, email: a.email, name: 'changed' })).rejects.toThrow()
        const read = await adapter.getUser(b.id)
        expect(read?.email).toBe(b.email)
        expect(read?.name).toBe('B')
      })

      test('returned users are copies: changing one does not change the store', async () => {
        const created = await user({ name: 'Original' })
        created.name = 'Mutated'
        const read = await adapter.getUser(created.id)
        expect(read?.name).toBe('Original')
        read!.emailVerified = new Date(0)
        expect((await adapter.getUser(created.id))?.emailVerified).toBeNull()
      })

      test('deleteUser removes the user with its accounts, sessions and authenticators, and nobody else’s', async () => {
        const doomed = await user()
        const other = await user()
        const doomedAccount = account(doomed.id)
        const otherAccount = account(other.id)
        await adapter.linkAccount(doomedAccount)
        await adapter.linkAccount(otherAccount)
        const doomedToken = `session-${unique()}`
        const otherToken = `session-${unique()}`
        await adapter.createSession({ sessionToken: doomedToken, userId: doomed.id, expires: later(30) })
        await adapter.createSession({ sessionToken: otherToken, userId: other.id, expires: later(30) })
        const doomedKey = authenticator(doomed.id)
        const otherKey = authenticator(other.id)
        await adapter.createAuthenticator(doomedKey)
        await adapter.createAuthenticator(otherKey)

        await adapter.deleteUser(doomed.id)

        expect(await adapter.getUser(doomed.id)).toBeNull()
        expect(await adapter.getUserByEmail(doomed.email)).toBeNull()
        expect(await adapter.getAccount(doomedAccount.providerAccountId, doomedAccount.provider)).toBeNull()
        expect(await adapter.getUserByAccount(doomedAccount)).toBeNull()
        expect(await adapter.getSessionAndUser(doomedToken)).toBeNull()
        expect(await adapter.getAuthenticator(doomedKey.credentialID)).toBeNull()
        expect(await adapter.listAuthenticatorsByUserId(doomed.id)).toEqual([])

        expect((await adapter.getUser(other.id))?.id).toBe(other.id)
        expect(await adapter.getAccount(otherAccount.providerAccountId, otherAccount.provider)).not.toBeNull()
        expect((await adapter.getSessionAndUser(otherToken))?.user.id).toBe(other.id)
        expect(await adapter.getAuthenticator(otherKey.credentialID)).not.toBeNull()
      })

      test('deleteUser frees the email for a new user', async () => {
        const first = await user()
        await adapter.deleteUser(first.id)
        const second = await user({ email: first.email })
        expect((await adapter.getUserByEmail(first.email))?.id).toBe(second.id)
      })

      test('deleteUser of an unknown user does not throw', async () => {
        const result = await adapter.deleteUser(randomUUID())
        expect(result ?? null).toBeNull()
      })
    })

    describe('accounts', () => {
      test('linkAccount stores every token field and extra fields such as session_state', async () => {
        const owner = await user()
        const input = account(owner.id, {
          type: 'oidc',
          access_token: `at-${unique()}`,
          refresh_token: `rt-${unique()}`,
          id_token: `it-${unique()}`,
          scope: 'openid email profile',
          token_type: 'bearer',
          expires_in: 3600,
          expires_at: 1_900_000_000,
          session_state: `ss-${unique()}`,
          authorization_details: [{ type: 'payment_initiation', actions: ['initiate'], locations: ['https://bank.example.test'] }],
          custom_claim: { nested: [1, 'two', true, null] },
        })
        await adapter.linkAccount(input)
        expect(await adapter.getAccount(input.providerAccountId, input.provider)).toEqual(input)
      })

      test('linkAccount with only the required fields gives back no token fields', async () => {
        const owner = await user()
        const input = account(owner.id, { type: 'email' })
        await adapter.linkAccount(input)
        expect(await adapter.getAccount(input.providerAccountId, input.provider)).toEqual(input)
      })

      test('getUserByAccount finds the owner by provider and providerAccountId', async () => {
        const owner = await user({ name: 'Owner' })
        const input = account(owner.id)
        await adapter.linkAccount(input)
        const found = await adapter.getUserByAccount({ provider: input.provider, providerAccountId: input.providerAccountId })
        expect(found).toEqual(owner)
      })

      test('getUserByAccount returns null for an unknown account or the right id under another provider', async () => {
        const owner = await user()
        const input = account(owner.id)
        await adapter.linkAccount(input)
        expect(await adapter.getUserByAccount({ provider: input.provider, providerAccountId: unique() })).toBeNull()
        expect(await adapter.getUserByAccount({ provider: `other-${unique()}`, providerAccountId: input.providerAccountId })).toBeNull()
      })

      test('getAccount returns null when nothing matches', async () => {
        expect(await adapter.getAccount(unique(), `provider-${unique()}`)).toBeNull()
      })

      test('one user can have several accounts', async () => {
        const owner = await user()
        const a = account(owner.id)
        const b = account(owner.id, { type: 'email' })
        await adapter.linkAccount(a)
        await adapter.linkAccount(b)
        expect((await adapter.getUserByAccount(a))?.id).toBe(owner.id)
        expect((await adapter.getUserByAccount(b))?.id).toBe(owner.id)
      })

      test('linkAccount throws for a (provider, providerAccountId) already linked, even to another user', async () => {
        const first = await user()
        const second = await user()
        const input = account(first.id, { access_token: 'first' })
        await adapter.linkAccount(input)
        await expect(adapter.linkAccount({ ...input, userId: second.id, access_token: 'second' })).rejects.toThrow()
        const stored = await adapter.getAccount(input.providerAccountId, input.provider)
        expect(stored?.userId).toBe(first.id)
        expect(stored?.access_token).toBe('first')
      })

      test('the same providerAccountId under another provider is a different account', async () => {
        const owner = await user()
        const input = account(owner.id)
        await adapter.linkAccount(input)
        const other = { ...input, provider: `provider-${unique()}` }
        await adapter.linkAccount(other)
        expect(await adapter.getAccount(other.providerAccountId, other.provider)).toEqual(other)
      })

      test('linkAccount throws for an unknown user', async () => {
        const input = account(randomUUID())
        await expect(adapter.linkAccount(input)).rejects.toThrow()
        expect(await adapter.getAccount(input.providerAccountId, input.provider)).toBeNull()
      })

      test('unlinkAccount removes the account and keeps the user', async () => {
        const owner = await user()
        const input = account(owner.id)
        await adapter.linkAccount(input)
        await adapter.unlinkAccount({ provider: input.provider, providerAccountId: input.providerAccountId })
        expect(await adapter.getAccount(input.providerAccountId, input.provider)).toBeNull()
        expect(await adapter.getUserByAccount(input)).toBeNull()
        expect((await adapter.getUser(owner.id))?.id).toBe(owner.id)
      })

      test('unlinkAccount of an unknown account does not throw', async () => {
        const result = await adapter.unlinkAccount({ provider: `provider-${unique()}`, providerAccountId: unique() })
        expect(result ?? null).toBeNull()
      })

      test('listAccountsByUserId lists the user\'s accounts only, and [] for an unknown user', async () => {
        const owner = await user()
        const other = await user()
        const mine = [account(owner.id, { provider: 'a-provider', access_token: 't' }), account(owner.id, { provider: 'b-provider' })]
        for (const a of [...mine, account(other.id)]) await adapter.linkAccount(a)
        const listed = await adapter.listAccountsByUserId(owner.id)
        expect([...listed].sort((x, y) => x.provider.localeCompare(y.provider))).toEqual(mine)
        expect(await adapter.listAccountsByUserId(unique())).toEqual([])
      })

      test('updateAccount changes the given token fields, clears those given as null, keeps the rest', async () => {
        const owner = await user()
        const input = account(owner.id, { access_token: 'a1', refresh_token: 'r1', scope: 'openid', expires_at: 100, session_state: 'kept' })
        await adapter.linkAccount(input)
        const key = { provider: input.provider, providerAccountId: input.providerAccountId }
        const updated = await adapter.updateAccount({ ...key, access_token: 'a2', expires_at: 200.5, scope: null })
        const { scope: _scope, ...rest } = input
        const expected = { ...rest, access_token: 'a2', expires_at: 200.5 }
        expect(updated).toEqual(expected)
        expect(await adapter.getAccount(input.providerAccountId, input.provider)).toEqual(expected)
        expect(await adapter.updateAccount({ provider: input.provider, providerAccountId: unique(), access_token: 'x' })).toBeNull()
      })

      test('updateAccount with ifRefreshToken changes the account only while it still holds that refresh token', async () => {
        const owner = await user()
        const input = account(owner.id, { access_token: 'a1', refresh_token: 'r1' })
        await adapter.linkAccount(input)
        const key = { provider: input.provider, providerAccountId: input.providerAccountId }
        expect(await adapter.updateAccount({ ...key, access_token: 'lost' }, { ifRefreshToken: 'other' })).toBeNull()
        expect(await adapter.updateAccount({ ...key, access_token: 'lost' }, { ifRefreshToken: null })).toBeNull()
        expect((await adapter.getAccount(input.providerAccountId, input.provider))?.access_token).toBe('a1')
        const won = await adapter.updateAccount({ ...key, access_token: 'a2', refresh_token: 'r2' }, { ifRefreshToken: 'r1' })
        expect(won).toMatchObject({ access_token: 'a2', refresh_token: 'r2' })
        expect(await adapter.updateAccount({ ...key, access_token: 'late' }, { ifRefreshToken: 'r1' })).toBeNull()
        // null compares with an account that has no refresh token.
        const bare = account(owner.id)
        await adapter.linkAccount(bare)
        expect(await adapter.updateAccount({ provider: bare.provider, providerAccountId: bare.providerAccountId, access_token: 'b' }, { ifRefreshToken: null })).toMatchObject({ access_token: 'b' })
      })

      test('updateAccount refuses fields other than token fields, and values of the wrong type, changing nothing', async () => {
        const owner = await user()
        const input = account(owner.id, { access_token: 'a1' })
        await adapter.linkAccount(input)
        const key = { provider: input.provider, providerAccountId: input.providerAccountId }
        await expect(adapter.updateAccount({ ...key, userId: 'someone-else' } as never)).rejects.toThrow(/updateAccount: expected only token fields/)
        await expect(adapter.updateAccount({ ...key, expires_at: 'soon' } as never)).rejects.toThrow(/expected expires_at to be a finite number or null/)
        await expect(adapter.updateAccount({ ...key, access_token: 5 } as never)).rejects.toThrow(/expected access_token to be a string or null/)
        expect(await adapter.getAccount(input.providerAccountId, input.provider)).toEqual(input)
      })

      test('an account marked refresh_error shows on its user\'s sessions as refreshError, and only while marked', async () => {
        const owner = await user()
        const other = await user()
        const input = account(owner.id, { refresh_token: 'r1' })
        await adapter.linkAccount(input)
        const sessionToken = `session-${unique()}`
        const otherToken = `session-${unique()}`
        await adapter.createSession({ sessionToken, userId: owner.id, expires: later(1) })
        await adapter.createSession({ sessionToken: otherToken, userId: other.id, expires: later(1) })
        expect((await adapter.getSessionAndUser(sessionToken))?.session.refreshError).toBeUndefined()
        const key = { provider: input.provider, providerAccountId: input.providerAccountId }
        expect(await adapter.updateAccount({ ...key, refresh_error: 'invalid_grant' })).toMatchObject({ refresh_error: 'invalid_grant' })
        expect((await adapter.getSessionAndUser(sessionToken))?.session.refreshError).toBe(true)
        expect((await adapter.getSessionAndUser(otherToken))?.session.refreshError).toBeUndefined()
        await adapter.updateAccount({ ...key, refresh_error: null })
        expect((await adapter.getSessionAndUser(sessionToken))?.session.refreshError).toBeUndefined()
      })
    })

    describe('sessions', () => {
      test('createSession returns the session with expires to the millisecond', async () => {
        const owner = await user()
        const expires = later(30)
        const sessionToken = `session-${unique()}`
        const session = await adapter.createSession({ sessionToken, userId: owner.id, expires })
        expect(session.sessionToken).toBe(sessionToken)
        expect(session.userId).toBe(owner.id)
        expect(session.expires).toBeInstanceOf(Date)
        expect(session.expires.getTime()).toBe(expires.getTime())
      })

      test('getSessionAndUser returns the session and its user together', async () => {
        const owner = await user({ name: 'Session owner' })
        const expires = later(7)
        const sessionToken = `session-${unique()}`
        await adapter.createSession({ sessionToken, userId: owner.id, expires })
        const found = await adapter.getSessionAndUser(sessionToken)
        expect(found).not.toBeNull()
        expect(found!.session).toEqual({ sessionToken, userId: owner.id, expires })
        expect(found!.user).toEqual(owner)
      })

      test('getSessionAndUser returns null for an unknown token', async () => {
        expect(await adapter.getSessionAndUser(`session-${unique()}`)).toBeNull()
      })

      test('updateSession moves expires and returns the session', async () => {
        const owner = await user()
        const sessionToken = `session-${unique()}`
        await adapter.createSession({ sessionToken, userId: owner.id, expires: later(1) })
        const expires = later(60)
        const updated = await adapter.updateSession({ sessionToken, expires })
        expect(updated?.expires.getTime()).toBe(expires.getTime())
        expect(updated?.userId).toBe(owner.id)
        expect((await adapter.getSessionAndUser(sessionToken))?.session.expires.getTime()).toBe(expires.getTime())
      })

      test('updateSession of an unknown token returns nothing and creates nothing', async () => {
        const sessionToken = `session-${unique()}`
        const result = await adapter.updateSession({ sessionToken, expires: later(1) })
        expect(result ?? null).toBeNull()
        expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
      })

      test('deleteSession removes the session, and not the user', async () => {
        const owner = await user()
        const sessionToken = `session-${unique()}`
        await adapter.createSession({ sessionToken, userId: owner.id, expires: later(1) })
        const deleted = await adapter.deleteSession(sessionToken)
        if (deleted) expect(deleted.sessionToken).toBe(sessionToken)
        expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
        expect(await adapter.getUser(owner.id)).not.toBeNull()
      })

      test("deleteSessionsByUserId removes every session of that user, and nobody else's", async () => {
        const [owner, other] = [await user(), await user()]
        const tokens = [`session-${unique()}`, `session-${unique()}`]
        for (const sessionToken of tokens) await adapter.createSession({ sessionToken, userId: owner.id, expires: later(1) })
        const kept = `session-${unique()}`
        await adapter.createSession({ sessionToken: kept, userId: other.id, expires: later(1) })
        await adapter.deleteSessionsByUserId(owner.id)
        for (const sessionToken of tokens) expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
        expect((await adapter.getSessionAndUser(kept))?.session.userId).toBe(other.id)
        expect(await adapter.getUser(owner.id)).not.toBeNull()
        await adapter.deleteSessionsByUserId(owner.id)
      })

      test('updateSession keeps a deviceBinding (device-bound sessions), and an expiry update keeps it', async () => {
        const owner = await user()
        const sessionToken = `session-${unique()}`
        await adapter.createSession({ sessionToken, userId: owner.id, expires: later(1) })
        expect((await adapter.getSessionAndUser(sessionToken))?.session.deviceBinding ?? null).toBeNull()
        const deviceBinding = { id: `binding-${unique()}`, jwk: { kty: 'EC', crv: 'P-256', x: 'x-coordinate', y: 'y-coordinate' } }
        await adapter.updateSession({ sessionToken, deviceBinding })
        expect((await adapter.getSessionAndUser(sessionToken))?.session.deviceBinding).toEqual(deviceBinding)
        const expires = later(2)
        await adapter.updateSession({ sessionToken, expires })
        const after = await adapter.getSessionAndUser(sessionToken)
        expect(after?.session.deviceBinding).toEqual(deviceBinding)
        expect(after?.session.expires.getTime()).toBe(expires.getTime())
      })

      test('listSessionsByUserId lists every session of that user, with the sign-in time, user agent and provider it was made with', async () => {
        const [owner, other] = [await user(), await user()]
        const createdAt = later(-1)
        const mine = [`session-${unique()}`, `session-${unique()}`]
        await adapter.createSession({ sessionToken: mine[0], userId: owner.id, expires: later(1), createdAt, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0', signInProvider: 'credentials' })
        await adapter.createSession({ sessionToken: mine[1], userId: owner.id, expires: later(2) })
        await adapter.createSession({ sessionToken: `session-${unique()}`, userId: other.id, expires: later(1) })
        const listed = await adapter.listSessionsByUserId(owner.id)
        expect(listed.map((s) => s.sessionToken).sort()).toEqual([...mine].sort())
        const first = listed.find((s) => s.sessionToken === mine[0])!
        expect(first.createdAt?.getTime()).toBe(createdAt.getTime())
        expect(first.userAgent).toBe('Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0')
        expect(first.signInProvider).toBe('credentials')
        expect((await adapter.getSessionAndUser(mine[0]))?.session).toMatchObject({ createdAt, userAgent: first.userAgent, signInProvider: 'credentials' })
        expect(listed.find((s) => s.sessionToken === mine[1])!.signInProvider ?? null).toBeNull()
        expect(await adapter.listSessionsByUserId(`user-${unique()}`)).toEqual([])
      })

      test('deleteSession of an unknown token does not throw', async () => {
        const result = await adapter.deleteSession(`session-${unique()}`)
        expect(result ?? null).toBeNull()
      })

      test('createSession throws for an unknown user', async () => {
        const sessionToken = `session-${unique()}`
        await expect(adapter.createSession({ sessionToken, userId: randomUUID(), expires: later(1) })).rejects.toThrow()
        expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
      })

      test('createSession throws for a token already in use, and keeps the first session', async () => {
        const first = await user()
        const second = await user()
        const sessionToken = `session-${unique()}`
        await adapter.createSession({ sessionToken, userId: first.id, expires: later(1) })
        await expect(adapter.createSession({ sessionToken, userId: second.id, expires: later(2) })).rejects.toThrow()
        expect((await adapter.getSessionAndUser(sessionToken))?.user.id).toBe(first.id)
      })
    })

    describe('verification tokens', () => {
      test('createVerificationToken returns the token; useVerificationToken returns it once, then null', async () => {
        const record = { identifier: `user-${unique()}@example.test`, token: `hash-${unique()}`, expires: later(1) }
        const created = await adapter.createVerificationToken(record)
        if (created) expect(created).toEqual(record)
        const used = await adapter.useVerificationToken({ identifier: record.identifier, token: record.token })
        expect(used).toEqual(record)
        expect(used?.expires).toBeInstanceOf(Date)
        expect(used?.expires.getTime()).toBe(record.expires.getTime())
        expect(await adapter.useVerificationToken({ identifier: record.identifier, token: record.token })).toBeNull()
      })

      test('useVerificationToken returns null for an unknown token', async () => {
        expect(await adapter.useVerificationToken({ identifier: `user-${unique()}@example.test`, token: unique() })).toBeNull()
      })

      test('useVerificationToken with the wrong identifier returns null and does not use the token', async () => {
        const record = { identifier: `user-${unique()}@example.test`, token: `hash-${unique()}`, expires: later(1) }
        await adapter.createVerificationToken(record)
        expect(await adapter.useVerificationToken({ identifier: `other-${unique()}@example.test`, token: record.token })).toBeNull()
        expect(await adapter.useVerificationToken({ identifier: record.identifier, token: `hash-${unique()}` })).toBeNull()
        expect(await adapter.useVerificationToken(record)).toEqual(record)
      })

      test('one identifier can hold several tokens, each used on its own', async () => {
        const identifier = `user-${unique()}@example.test`
        const a = { identifier, token: `hash-${unique()}`, expires: later(1) }
        const b = { identifier, token: `hash-${unique()}`, expires: later(2) }
        await adapter.createVerificationToken(a)
        await adapter.createVerificationToken(b)
        expect(await adapter.useVerificationToken(a)).toEqual(a)
        expect(await adapter.useVerificationToken(b)).toEqual(b)
      })

      test('50 parallel useVerificationToken calls on one token: exactly one wins', async () => {
        const record = { identifier: `user-${unique()}@example.test`, token: `hash-${unique()}`, expires: later(1) }
        await adapter.createVerificationToken(record)
        const results = await Promise.all(
          Array.from({ length: 50 }, () => adapter.useVerificationToken({ identifier: record.identifier, token: record.token })),
        )
        const winners = results.filter((result) => result !== null)
        expect(winners).toHaveLength(1)
        expect(winners[0]).toEqual(record)
      })

      // Optional: adapters without deleteVerificationTokens pass these unchecked.
      const deletes = () => typeof adapter.deleteVerificationTokens === 'function'
      const exists = async (record: { identifier: string; token: string }) => (await adapter.useVerificationToken(record)) !== null

      test('deleteVerificationTokens({ identifier }) deletes every token of that identifier and no other', async () => {
        if (!deletes()) return
        const identifier = `dbsc:register:${unique()}`
        const mine = [later(1), later(2)].map((expires) => ({ identifier, token: `hash-${unique()}`, expires }))
        const other = { identifier: `${identifier}-other`, token: `hash-${unique()}`, expires: later(1) }
        for (const record of [...mine, other]) await adapter.createVerificationToken(record)
        expect(await adapter.deleteVerificationTokens({ identifier })).toBe(2)
        expect(await adapter.deleteVerificationTokens({ identifier })).toBe(0)
        expect(await exists(mine[0]!)).toBe(false)
        expect(await exists(mine[1]!)).toBe(false)
        expect(await exists(other)).toBe(true)
      })

      test('deleteVerificationTokens({ expiredBefore, limit }) deletes at most limit expired tokens and no live one', async () => {
        if (!deletes()) return
        // Dates long past, so that other tests' tokens (all live) are not among them.
        const at = (minutes: number) => new Date(Date.UTC(1990, 0, 1) + minutes * 60_000)
        const identifier = `webauthn:${unique()}`
        const expired = [1, 2, 3].map((m) => ({ identifier, token: `hash-${unique()}`, expires: at(m) }))
        const live = { identifier, token: `hash-${unique()}`, expires: at(5) }
        for (const record of [...expired, live]) await adapter.createVerificationToken(record)
        expect(await adapter.deleteVerificationTokens({ expiredBefore: at(5), limit: 2 })).toBe(2)
        expect(await adapter.deleteVerificationTokens({ identifier, expiredBefore: at(5), limit: 100 })).toBe(1)
        for (const record of expired) expect(await exists(record)).toBe(false)
        expect(await exists(live)).toBe(true)
      })

      test('deleteVerificationTokens refuses a filter that would delete every token, and a bad limit', async () => {
        if (!deletes()) return
        const record = { identifier: `user-${unique()}@example.test`, token: `hash-${unique()}`, expires: later(1) }
        await adapter.createVerificationToken(record)
        await expect(Promise.resolve().then(() => adapter.deleteVerificationTokens({}))).rejects.toThrow(/identifier or expiredBefore/)
        await expect(Promise.resolve().then(() => adapter.deleteVerificationTokens({ limit: 5 }))).rejects.toThrow(/identifier or expiredBefore/)
        await expect(Promise.resolve().then(() => adapter.deleteVerificationTokens({ identifier: record.identifier, limit: 0 }))).rejects.toThrow(/limit/)
        expect(await exists(record)).toBe(true)
      })
    })

    describe('authenticators', () => {
      test('createAuthenticator returns it and getAuthenticator reads it back, transports set', async () => {
        const owner = await user()
        const input = authenticator(owner.id, {
          counter: 7,
          credentialDeviceType: 'multiDevice',
          credentialBackedUp: true,
          transports: 'internal,hybrid',
        })
        expect(await adapter.createAuthenticator(input)).toEqual(input)
        expect(await adapter.getAuthenticator(input.credentialID)).toEqual(input)
      })

      test('transports given as null stay null; absent transports read back as absent or null', async () => {
        const owner = await user()
        const withNull = authenticator(owner.id, { transports: null })
        await adapter.createAuthenticator(withNull)
        expect((await adapter.getAuthenticator(withNull.credentialID))?.transports).toBeNull()
        const withoutKey = authenticator(owner.id)
        await adapter.createAuthenticator(withoutKey)
        const read = await adapter.getAuthenticator(withoutKey.credentialID)
        expect(read?.transports ?? null).toBeNull()
        expect(read?.credentialBackedUp).toBe(false)
        expect(read?.counter).toBe(0)
      })

      test('getAuthenticator returns null when not found', async () => {
        expect(await adapter.getAuthenticator(`cred-${unique()}`)).toBeNull()
      })

      test('createAuthenticator throws for a credentialID already registered', async () => {
        const owner = await user()
        const input = authenticator(owner.id, { counter: 1 })
        await adapter.createAuthenticator(input)
        await expect(adapter.createAuthenticator({ ...input, counter: 99 })).rejects.toThrow()
        expect((await adapter.getAuthenticator(input.credentialID))?.counter).toBe(1)
      })

      test('createAuthenticator throws for an unknown user', async () => {
        const input = authenticator(randomUUID())
        await expect(adapter.createAuthenticator(input)).rejects.toThrow()
        expect(await adapter.getAuthenticator(input.credentialID)).toBeNull()
      })

      test("listAuthenticatorsByUserId returns all of the user's authenticators and no one else's", async () => {
        const owner = await user()
        const other = await user()
        const a = authenticator(owner.id, { transports: 'usb' })
        const b = authenticator(owner.id, { counter: 3 })
        await adapter.createAuthenticator(a)
        await adapter.createAuthenticator(b)
        await adapter.createAuthenticator(authenticator(other.id))
        const list = await adapter.listAuthenticatorsByUserId(owner.id)
        const byId = (x: AdapterAuthenticator, y: AdapterAuthenticator) => x.credentialID.localeCompare(y.credentialID)
        expect(list.map((item) => ({ ...item, transports: item.transports ?? null })).sort(byId)).toEqual(
          [a, { ...b, transports: null }].sort(byId),
        )
      })

      test('listAuthenticatorsByUserId returns [] for an unknown user and for a user without any', async () => {
        expect(await adapter.listAuthenticatorsByUserId(randomUUID())).toEqual([])
        const owner = await user()
        expect(await adapter.listAuthenticatorsByUserId(owner.id)).toEqual([])
      })

      test('updateAuthenticatorCounter stores and returns the new counter, up to 2^32 - 1', async () => {
        const owner = await user()
        const input = authenticator(owner.id, { counter: 1 })
        await adapter.createAuthenticator(input)
        const updated = await adapter.updateAuthenticatorCounter(input.credentialID, 2)
        expect(updated).toEqual({ ...input, counter: 2, transports: updated.transports })
        expect((await adapter.getAuthenticator(input.credentialID))?.counter).toBe(2)
        await adapter.updateAuthenticatorCounter(input.credentialID, 4_294_967_295)
        expect((await adapter.getAuthenticator(input.credentialID))?.counter).toBe(4_294_967_295)
      })

      test('updateAuthenticatorCounter throws for an unknown credential', async () => {
        const credentialID = `cred-${unique()}`
        await expect(adapter.updateAuthenticatorCounter(credentialID, 5)).rejects.toThrow()
        expect(await adapter.getAuthenticator(credentialID)).toBeNull()
      })

      test('deleteAuthenticator removes one authenticator and returns it; null when none matched', async () => {
        const owner = await user()
        const keep = authenticator(owner.id, { transports: 'nfc' })
        const remove = authenticator(owner.id, { transports: 'ble' })
        await adapter.createAuthenticator(keep)
        await adapter.createAuthenticator(remove)
        expect(await adapter.deleteAuthenticator(remove.credentialID)).toEqual(remove)
        expect(await adapter.getAuthenticator(remove.credentialID)).toBeNull()
        expect(await adapter.listAuthenticatorsByUserId(owner.id)).toEqual([keep])
        expect(await adapter.deleteAuthenticator(remove.credentialID)).toBeNull()
      })
    })

    describe('concurrency', () => {
      test('20 parallel createUser calls with one email: exactly one user exists, the others reject', async () => {
        const email = `race-${unique()}@example.test`
        const results = await Promise.allSettled(Array.from({ length: 20 }, () => adapter.createUser(newUser({ email }))))
        const fulfilled = results.filter((r): r is PromiseFulfilledResult<AdapterUser> => r.status === 'fulfilled')
        expect(fulfilled).toHaveLength(1)
        expect(results.filter((r) => r.status === 'rejected')).toHaveLength(19)
        expect((await adapter.getUserByEmail(email))?.id).toBe(fulfilled[0]!.value.id)
      })

      test('10 parallel updateAccount calls comparing on one refresh token: exactly one wins', async () => {
        const owner = await user()
        const input = account(owner.id, { refresh_token: 'r0' })
        await adapter.linkAccount(input)
        const key = { provider: input.provider, providerAccountId: input.providerAccountId }
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => adapter.updateAccount({ ...key, access_token: `a${i}`, refresh_token: `r${i + 1}` }, { ifRefreshToken: 'r0' })),
        )
        const winners = results.filter((r) => r !== null)
        expect(winners).toHaveLength(1)
        expect(await adapter.getAccount(input.providerAccountId, input.provider)).toEqual(winners[0])
      })

      test('parallel linkAccount calls for one (provider, providerAccountId): exactly one links', async () => {
        const owners = await Promise.all(Array.from({ length: 5 }, () => user()))
        const shared = account(owners[0]!.id)
        const results = await Promise.allSettled(owners.map((owner) => adapter.linkAccount({ ...shared, userId: owner.id })))
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
        const winner = owners[results.findIndex((r) => r.status === 'fulfilled')]!
        expect((await adapter.getUserByAccount(shared))?.id).toBe(winner.id)
      })
    })
  })
}
