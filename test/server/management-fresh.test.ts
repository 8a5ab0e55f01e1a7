/**
 * What a copied old cookie can no longer do to the owner's ways in (issue "Holes found from
 * outside, round three", items 1 and 2), and how the owner takes back what a thief added: removing
 * a passkey, unlinking an account and ending another session share one freshness guard, and a
 * password (credentials) sign-in counts as a way in for the session it made.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { OAuth2Config } from '../../src/core/types.js'
import Passkey from '../../src/providers/passkey.js'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

const hour = 3600_000
const github: OAuth2Config<any> = { id: 'github', name: 'GitHub', type: 'oauth', clientId: 'c', clientSecret: 's', authorization: 'https://idp.example/authorize', token: 'https://idp.example/token', userinfo: 'https://idp.example/me', jwks_endpoint: undefined }

async function passwordSignIn(jar: Jar): Promise<void> {
  const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
  expect(res.status).toBe(302)
}

describe.each(['database', 'jwt'] as const)('%s sessions', (strategy) => {
  /** Ada signs in with her password; a thief's passkey and GitHub account were added to her user meanwhile. */
  async function setup() {
    const adapter = MemoryAdapter()
    const server = testServer({ strategy, adapter, extraProviders: [Passkey(), github] })
    const owner = new Jar(server.handler)
    await passwordSignIn(owner)
    await adapter.createAuthenticator({ credentialID: 'thief-key', credentialPublicKey: 'key', userId: 'user-ada', providerAccountId: 'thief-key', counter: 0, credentialDeviceType: 'singleDevice', credentialBackedUp: false })
    await adapter.linkAccount({ userId: 'user-ada', type: 'oauth', provider: 'github', providerAccountId: 'thief-github' })
    const act = async (jar: Jar, path: string, fields: Record<string, string>) => jar.postForm(`/auth/${path}`, { csrfToken: await jar.csrf(), ...fields })
    return { ...server, adapter, owner, act }
  }

  it('a copied cookie past freshAge removes no passkey and unlinks no account: 403 SessionNotFresh, nothing changes', async () => {
    const { adapter, owner, clock, act, handler } = await setup()
    const thief = new Jar(handler)
    for (const [name, value] of owner.cookies) thief.cookies.set(name, value)
    clock.now += 2 * hour
    const remove = await act(thief, 'passkeys', { action: 'remove', id: 'thief-key' })
    expect(remove.status).toBe(403)
    expect(await remove.json()).toMatchObject({ error: 'SessionNotFresh' })
    expect(remove.headers.get('latchkey-webauthn-error')).toBe('not-fresh')
    const unlink = await act(thief, 'accounts', { action: 'unlink', provider: 'github' })
    expect(unlink.status).toBe(403)
    expect(await unlink.json()).toMatchObject({ error: 'SessionNotFresh' })
    expect(await adapter.getAuthenticator('thief-key')).not.toBeNull()
    expect((await adapter.listAccountsByUserId('user-ada')).map((a) => a.provider)).toEqual(['github'])
  })

  it('the password-only owner, signed in again, removes the thief\'s passkey and account down to none: the password counts', async () => {
    const { adapter, owner, clock, act } = await setup()
    clock.now += 2 * hour
    await passwordSignIn(owner)
    const remove = await act(owner, 'passkeys', { action: 'remove', id: 'thief-key' })
    expect(remove.status).toBe(200)
    expect(await remove.json()).toMatchObject({ passkeys: [] })
    const unlink = await act(owner, 'accounts', { action: 'unlink', provider: 'github' })
    expect(unlink.status).toBe(200)
    expect(await adapter.getAuthenticator('thief-key')).toBeNull()
    expect(await adapter.listAccountsByUserId('user-ada')).toEqual([])
    // And the password still signs her in.
    await passwordSignIn(owner)
    expect((await owner.session()).user.email).toBe('ada@example.com')
  })

  it('the password counts only while its credentials provider is configured: without it the last passkey stays (409)', async () => {
    const { adapter, owner, act } = await setup()
    await adapter.unlinkAccount({ provider: 'github', providerAccountId: 'thief-github' })
    // The same store and secret, and the session the password made, on a server that no longer offers passwords.
    const other = testServer({ strategy, adapter, providers: [Passkey(), github] })
    const jar = new Jar(other.handler)
    for (const [name, value] of owner.cookies) jar.cookies.set(name, value)
    expect((await jar.session()).user.email).toBe('ada@example.com')
    const refused = await act(jar, 'passkeys', { action: 'remove', id: 'thief-key' })
    expect(refused.status).toBe(409)
    expect(await adapter.getAuthenticator('thief-key')).not.toBeNull()
  })
})

describe('management routes of one shape', () => {
  it('a missing adapter method is 501 NotSupported naming it, on /accounts, /passkeys and /sessions alike', async () => {
    const base = MemoryAdapter()
    const { listAccountsByUserId: _a, listAuthenticatorsByUserId: _p, listSessionsByUserId: _s, ...rest } = base
    // /passkeys is installed with a passkey provider.
    const server = testServer({ adapter: rest as typeof base, extraProviders: [Passkey()] })
    const jar = new Jar(server.handler)
    await passwordSignIn(jar)
    for (const [path, method] of [['accounts', 'listAccountsByUserId'], ['passkeys', 'listAuthenticatorsByUserId'], ['sessions', 'listSessionsByUserId']]) {
      const res = await jar.get(`/auth/${path}`)
      expect([path, res.status]).toEqual([path, 501])
      expect(await res.json()).toMatchObject({ error: 'NotSupported', message: expect.stringContaining(method) })
    }
  })

  it('one reader of a POST: the same 400 naming the actions expected, and the same 401 signed out', async () => {
    const { handler } = testServer({ extraProviders: [Passkey()] })
    const jar = new Jar(handler)
    await passwordSignIn(jar)
    for (const [path, expected] of [['accounts', 'unlink'], ['passkeys', 'remove or rename'], ['sessions', 'revoke or revoke-others']]) {
      const res = await jar.postForm(`/auth/${path}`, { csrfToken: await jar.csrf(), action: 'explode' })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ error: 'InvalidRequest', message: `Expected "action" to be ${expected}, got another value` })
    }
    const out = new Jar(handler)
    for (const path of ['accounts', 'passkeys', 'sessions']) {
      const res = await out.get(`/auth/${path}`)
      expect([path, res.status, ((await res.json()) as { error: string }).error]).toEqual([path, 401, 'AccessDenied'])
    }
  })
})
