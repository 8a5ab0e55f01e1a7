import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { resolveConfig } from '../../src/server/kernel/config.js'
import { createContext } from '../../src/server/kernel/context.js'
import { completeSignIn } from '../../src/server/sign-in/complete.js'
import type { AdapterAccount, OAuth2Config } from '../../src/core/types.js'
import { testSecret } from '../support/server.js'

function oauth(id: string, extra: Partial<OAuth2Config<any>> = {}): OAuth2Config<any> {
  return { id, name: id, type: 'oauth', jwks_endpoint: undefined, ...extra }
}

function setup(events: string[] = []) {
  const adapter = MemoryAdapter()
  const config = resolveConfig({
    secret: testSecret,
    adapter,
    providers: [oauth('alpha'), oauth('beta')],
    events: {
      createUser: ({ user }) => void events.push(`createUser ${user.email}`),
      linkAccount: ({ account }) => void events.push(`linkAccount ${account.provider}`),
      signIn: ({ isNewUser }) => void events.push(`signIn new=${isNewUser}`),
    },
  })
  /** Runs one sign-in as a browser carrying `cookie`; returns the session cookie it got. */
  async function signIn(provider: string, accountId: string, email: string, options: { cookie?: string; dangerous?: boolean } = {}) {
    const ctx = createContext(new Request('http://localhost/auth/callback/' + provider, { headers: options.cookie ? { cookie: options.cookie } : {} }), config)
    const account: AdapterAccount = { type: 'oauth', provider, providerAccountId: accountId, userId: '', access_token: 'at' }
    const result = await completeSignIn(ctx, { user: { email, name: 'N' }, account, allowDangerousEmailAccountLinking: options.dangerous })
    if (!result.started) throw new Error(`expected a session, got the step ${result.step.due}`)
    const cookie = ctx.setCookies.find((c) => c.startsWith('latchkey.session-token='))!.split(';')[0]
    return { result, cookie }
  }
  return { adapter, signIn }
}

describe('account linking', () => {
  it('first sign-in creates the user and links the account; the second finds them', async () => {
    const events: string[] = []
    const { adapter, signIn } = setup(events)
    const first = await signIn('alpha', 'a-1', 'kim@example.com')
    expect(first.result.isNewUser).toBe(true)
    expect(events).toEqual(['createUser kim@example.com', 'linkAccount alpha', 'signIn new=true'])
    const again = await signIn('alpha', 'a-1', 'kim@example.com')
    expect(again.result.user.id).toBe(first.result.user.id)
    expect(again.result.isNewUser).toBe(false)
    expect(await adapter.getAccount('a-1', 'alpha')).toMatchObject({ userId: first.result.user.id, access_token: 'at' })
    expect((await adapter.getUser(first.result.user.id!))!.emailVerified).toBeNull()
  })

  it('an email owned by another user is not linked automatically', async () => {
    const { adapter, signIn } = setup()
    await signIn('alpha', 'a-1', 'kim@example.com')
    await expect(signIn('beta', 'b-1', 'kim@example.com')).rejects.toMatchObject({ type: 'OAuthAccountNotLinked' })
    expect(await adapter.getAccount('b-1', 'beta')).toBeNull()
  })

  it('allowDangerousEmailAccountLinking links by email', async () => {
    const { adapter, signIn } = setup()
    const first = await signIn('alpha', 'a-1', 'kim@example.com')
    const second = await signIn('beta', 'b-1', 'kim@example.com', { dangerous: true })
    expect(second.result.user.id).toBe(first.result.user.id)
    expect(await adapter.getAccount('b-1', 'beta')).toMatchObject({ userId: first.result.user.id })
  })

  it('a provider trusted to link by email vouches for the address it creates a user with: a later proof removes nothing of it', async () => {
    const { adapter, signIn } = setup()
    const first = await signIn('alpha', 'a-1', 'kim@example.com', { dangerous: true })
    expect((await adapter.getUser(first.result.user.id!))!.emailVerified).toBeInstanceOf(Date)
    await signIn('beta', 'b-1', 'kim@example.com', { dangerous: true })
    expect(await adapter.getUserByAccount({ provider: 'alpha', providerAccountId: 'a-1' })).toMatchObject({ id: first.result.user.id })
    expect(await adapter.getUserByAccount({ provider: 'beta', providerAccountId: 'b-1' })).toMatchObject({ id: first.result.user.id })
  })

  it('an account from a provider that does not vouch for the address is unlinked when a trusted one first proves it', async () => {
    const { adapter, signIn } = setup()
    const first = await signIn('alpha', 'a-1', 'kim@example.com')
    expect((await adapter.getUser(first.result.user.id!))!.emailVerified).toBeNull()
    await signIn('beta', 'b-1', 'kim@example.com', { dangerous: true })
    expect(await adapter.getUserByAccount({ provider: 'alpha', providerAccountId: 'a-1' })).toBeNull()
    expect(await adapter.getUserByAccount({ provider: 'beta', providerAccountId: 'b-1' })).toMatchObject({ id: first.result.user.id })
  })

  it('a signed-in user signing in with a second provider gets it linked', async () => {
    const { adapter, signIn } = setup()
    const first = await signIn('alpha', 'a-1', 'kim@example.com')
    const second = await signIn('beta', 'b-9', 'other-address@example.com', { cookie: first.cookie })
    expect(second.result.user.id).toBe(first.result.user.id)
    expect(await adapter.getUserByAccount({ provider: 'beta', providerAccountId: 'b-9' })).toMatchObject({ id: first.result.user.id })
    expect(await adapter.getUserByEmail('other-address@example.com')).toBeNull()
  })

  it('an account linked to someone else is refused for a signed-in user', async () => {
    const { signIn } = setup()
    await signIn('alpha', 'a-1', 'kim@example.com')
    const lee = await signIn('alpha', 'a-2', 'lee@example.com')
    await expect(signIn('alpha', 'a-1', 'kim@example.com', { cookie: lee.cookie })).rejects.toMatchObject({ type: 'OAuthAccountNotLinked' })
  })
})
