/** latchkey's additions to the contract, by record kind: listing and updating accounts (compare-and-set on the refresh token, refresh_error), listing and ending a user's sessions and their device binding, purging verification tokens, removing an authenticator. */
import { beforeAll, describe, expect, test } from 'vitest'
import type { Adapter } from '../core/types.js'
import { account, authenticator, later, unique, type Suite } from './fixtures.js'

export function extensionTests(suite: Suite): void {
  describe("latchkey's additions", () => {
    let adapter: Required<Adapter>
    beforeAll(() => {
      adapter = suite.adapter
    })
    const { user } = suite

    // Optional: without ping, GET /health/ready answers on the process alone.
    test('ping resolves while the store answers (GET /health/ready asks it)', async () => {
      if (typeof (adapter as Adapter).ping !== 'function') return
      await expect(Promise.resolve(adapter.ping())).resolves.toBeUndefined()
    })

    describe('accounts', () => {
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

      // Optional: an adapter without replaceSessionToken passes these unchecked (the server then moves in two steps).
      const replaces = () => typeof adapter.replaceSessionToken === 'function'

      test('replaceSessionToken moves a session to a new token with everything else kept; the old token finds nothing', async () => {
        if (!replaces()) return
        const owner = await user()
        const [from, to] = [`session-${unique()}`, `session-${unique()}`]
        const expires = later(3)
        const createdAt = later(-1)
        await adapter.createSession({ sessionToken: from, userId: owner.id, expires, createdAt, signInProvider: 'email' })
        const moved = await adapter.replaceSessionToken(from, to)
        expect(moved).toMatchObject({ sessionToken: to, userId: owner.id, expires, createdAt, signInProvider: 'email' })
        expect(await adapter.getSessionAndUser(from)).toBeNull()
        expect((await adapter.getSessionAndUser(to))?.session).toMatchObject({ sessionToken: to, userId: owner.id, expires })
        expect(await adapter.replaceSessionToken(from, `session-${unique()}`)).toBeNull()
      })

      test('replaceSessionToken of an unknown token answers null and creates nothing; onto a token in use it throws and changes nothing', async () => {
        if (!replaces()) return
        const to = `session-${unique()}`
        expect(await adapter.replaceSessionToken(`session-${unique()}`, to)).toBeNull()
        expect(await adapter.getSessionAndUser(to)).toBeNull()
        const owner = await user()
        const [a, b] = [`session-${unique()}`, `session-${unique()}`]
        await adapter.createSession({ sessionToken: a, userId: owner.id, expires: later(1) })
        const expiresB = later(2)
        await adapter.createSession({ sessionToken: b, userId: owner.id, expires: expiresB })
        await expect(adapter.replaceSessionToken(a, b)).rejects.toThrow(/replaceSessionToken: expected a new session token/)
        expect((await adapter.getSessionAndUser(a))?.session.sessionToken).toBe(a)
        expect((await adapter.getSessionAndUser(b))?.session.expires.getTime()).toBe(expiresB.getTime())
      })

      test('replaceSessionToken is atomic: of concurrent moves of one session exactly one wins, and one session results', async () => {
        if (!replaces()) return
        const owner = await user()
        const from = `session-${unique()}`
        const to = `session-${unique()}`
        await adapter.createSession({ sessionToken: from, userId: owner.id, expires: later(1) })
        const results = await Promise.all(Array.from({ length: 5 }, () => adapter.replaceSessionToken(from, to)))
        expect(results.filter((r) => r !== null)).toHaveLength(1)
        expect((await adapter.listSessionsByUserId(owner.id)).map((s) => s.sessionToken)).toEqual([to])
      })

      test('listSessionsByUserId lists every session of that user, with the sign-in time, user agent, provider and amr it was made with', async () => {
        const [owner, other] = [await user(), await user()]
        const createdAt = later(-1)
        const mine = [`session-${unique()}`, `session-${unique()}`]
        await adapter.createSession({ sessionToken: mine[0], userId: owner.id, expires: later(1), createdAt, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0', signInProvider: 'credentials', amr: ['pwd', 'otp', 'mfa'] })
        await adapter.createSession({ sessionToken: mine[1], userId: owner.id, expires: later(2) })
        await adapter.createSession({ sessionToken: `session-${unique()}`, userId: other.id, expires: later(1) })
        const listed = await adapter.listSessionsByUserId(owner.id)
        expect(listed.map((s) => s.sessionToken).sort()).toEqual([...mine].sort())
        const first = listed.find((s) => s.sessionToken === mine[0])!
        expect(first.createdAt?.getTime()).toBe(createdAt.getTime())
        expect(first.userAgent).toBe('Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0')
        expect(first.signInProvider).toBe('credentials')
        expect(first.amr).toEqual(['pwd', 'otp', 'mfa'])
        expect((await adapter.getSessionAndUser(mine[0]))?.session).toMatchObject({ createdAt, userAgent: first.userAgent, signInProvider: 'credentials', amr: ['pwd', 'otp', 'mfa'] })
        expect(listed.find((s) => s.sessionToken === mine[1])!.signInProvider ?? null).toBeNull()
        expect(listed.find((s) => s.sessionToken === mine[1])!.amr ?? null).toBeNull()
        expect(await adapter.listSessionsByUserId(`user-${unique()}`)).toEqual([])
      })
    })

    describe('verification tokens', () => {
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
  })
}
