/** GET/POST /accounts over HTTP: listing without tokens, unlinking, the last-way guard and bad input. */
import { beforeEach, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { AdapterAccount, AdapterUser, AuthConfig } from '../../src/core/types.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { storedSessionToken } from '../../src/server/kernel/session-token.js'

const base = 'http://localhost/auth'
const oauth = (id: string, name: string) =>
  ({ id, name, type: 'oauth', clientId: 'c', clientSecret: 's', authorization: 'https://idp.example/authorize', token: 'https://idp.example/token', userinfo: 'https://idp.example/me', jwks_endpoint: undefined }) as const

let adapter: ReturnType<typeof MemoryAdapter>
let auth: ReturnType<typeof Latchkey>

function config(extra: Partial<AuthConfig> = {}): AuthConfig {
  return { secret: 'accounts-route-test-secret-at-least-32-chars', adapter, providers: [oauth('github', 'GitHub'), oauth('gitlab', 'GitLab')], logger: { error: () => {}, warn: () => {}, debug: () => {} }, ...extra }
}

beforeEach(() => {
  adapter = MemoryAdapter()
  auth = Latchkey(config())
})

/** A user with the given accounts and a signed-in browser: its cookie header with a CSRF pair, and the token. */
async function signedIn(email: string, providers: string[], user: Partial<AdapterUser> = {}) {
  const created = await adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: null, ...user })
  for (const provider of providers) {
    await adapter.linkAccount({ userId: created.id, type: 'oauth', provider, providerAccountId: `${provider}-${created.id}`, access_token: `secret-${provider}`, refresh_token: `refresh-${provider}` })
  }
  const session = crypto.randomUUID()
  // Signed in just now: unlinking needs a fresh session.
  await adapter.createSession({ sessionToken: await storedSessionToken(session), userId: created.id, expires: new Date(Date.now() + 86_400_000), createdAt: new Date() })
  const csrf = await auth(new Request(`${base}/csrf`))
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const csrfCookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!
  return { user: created, csrfToken, cookie: `latchkey.session-token=${session}; ${csrfCookie}` }
}

function post(cookie: string, body: unknown): Promise<Response> {
  return auth(new Request(`${base}/accounts`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) }))
}

const accountsOf = async (userId: string) => (await adapter.listAccountsByUserId(userId)).map((a: AdapterAccount) => a.provider).sort()

describe('/accounts', () => {
  it('GET lists the signed-in user\'s accounts with provider name and type, never a token', async () => {
    const me = await signedIn('a@example.test', ['github', 'gitlab'])
    const response = await auth(new Request(`${base}/accounts`, { headers: { cookie: me.cookie } }))
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(JSON.parse(text).accounts.sort((x: { provider: string }, y: { provider: string }) => x.provider.localeCompare(y.provider))).toEqual([
      { provider: 'github', name: 'GitHub', type: 'oauth' },
      { provider: 'gitlab', name: 'GitLab', type: 'oauth' },
    ])
    expect(text).not.toMatch(/secret-|refresh-/)
  })

  it('POST unlink removes the account and answers the rest', async () => {
    const me = await signedIn('b@example.test', ['github', 'gitlab'])
    const response = await post(me.cookie, { csrfToken: me.csrfToken, action: 'unlink', provider: 'github' })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { accounts: unknown[] }).accounts).toEqual([{ provider: 'gitlab', name: 'GitLab', type: 'oauth' }])
    expect(await accountsOf(me.user.id)).toEqual(['gitlab'])
  })

  it('refuses to unlink the last way to sign in (409), and allows it once a passkey remains', async () => {
    const me = await signedIn('c@example.test', ['github'])
    const refused = await post(me.cookie, { csrfToken: me.csrfToken, action: 'unlink', provider: 'github' })
    expect(refused.status).toBe(409)
    expect(await refused.json()).toMatchObject({ error: 'LastSignInMethod', message: expect.stringMatching(/last way to sign in/) })
    expect(await accountsOf(me.user.id)).toEqual(['github'])
    await adapter.createAuthenticator({ credentialID: 'cred', credentialPublicKey: 'key', userId: me.user.id, providerAccountId: 'cred', counter: 0, credentialDeviceType: 'singleDevice', credentialBackedUp: false })
    expect((await post(me.cookie, { csrfToken: me.csrfToken, action: 'unlink', provider: 'github' })).status).toBe(200)
    expect(await accountsOf(me.user.id)).toEqual([])
  })

  it("another user's account reads as not found and stays linked", async () => {
    const me = await signedIn('d@example.test', ['github', 'gitlab'])
    const other = await signedIn('e@example.test', ['gitlab'])
    await adapter.unlinkAccount({ provider: 'gitlab', providerAccountId: `gitlab-${me.user.id}` })
    const response = await post(me.cookie, { csrfToken: me.csrfToken, action: 'unlink', provider: 'gitlab' })
    expect(response.status).toBe(404)
    expect(await accountsOf(other.user.id)).toEqual(['gitlab'])
  })

  it('bad input is a 4xx naming what was expected, and changes nothing', async () => {
    const me = await signedIn('f@example.test', ['github', 'gitlab'])
    const cases: Array<[unknown, number, RegExp]> = [
      [{ action: 'unlink', provider: 'github' }, 403, /csrf/i],
      [{ csrfToken: 'forged', action: 'unlink', provider: 'github' }, 403, /csrf/i],
      [{ csrfToken: me.csrfToken, action: 'delete', provider: 'github' }, 400, /Expected "action" to be unlink/],
      [{ csrfToken: me.csrfToken, action: 'unlink' }, 400, /Expected "provider"/],
      [{ csrfToken: me.csrfToken, action: 'unlink', provider: ['github'] }, 400, /Expected "provider" to be a string/],
      [{ csrfToken: me.csrfToken, action: 'unlink', provider: 'nope' }, 404, /none with this one/],
    ]
    for (const [body, status, message] of cases) {
      const response = await post(me.cookie, body)
      const answer = (await response.json()) as { message: string }
      expect([response.status, answer.message]).toEqual([status, expect.stringMatching(message)])
    }
    expect(await accountsOf(me.user.id)).toEqual(['github', 'gitlab'])
  })

  it('signed out: GET and POST answer 401', async () => {
    const csrf = await auth(new Request(`${base}/csrf`))
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const cookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!
    expect((await auth(new Request(`${base}/accounts`))).status).toBe(401)
    expect((await post(cookie, { csrfToken, action: 'unlink', provider: 'github' })).status).toBe(401)
  })
})
