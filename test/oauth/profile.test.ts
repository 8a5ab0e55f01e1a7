/** The default profile and account mappings, and the checks each provider type performs. */
import { describe, expect, it } from 'vitest'
import type { OAuthConfig } from '../../src/core/types.js'
import { accountFrom, defaultAccount, defaultProfile, userFrom } from '../../src/server/features/oauth/profile.js'

const oidc = { id: 'o', name: 'O', type: 'oidc', jwks_endpoint: undefined } as OAuthConfig<any>
const oauth = { id: 'g', name: 'G', type: 'oauth', jwks_endpoint: undefined } as OAuthConfig<any>

describe('profile', () => {
  it('maps OIDC claims: id from sub, image from picture', () => {
    expect(defaultProfile(oidc, { sub: 'abc', id: 'ignored', email: 'a@example.com', name: 'A', picture: 'https://x/a.png' })).toEqual({
      id: 'abc',
      email: 'a@example.com',
      name: 'A',
      image: 'https://x/a.png',
    })
  })

  it('maps an OAuth 2 API answer: id from id (as a string), else sub', async () => {
    expect(defaultProfile(oauth, { id: 42, login: 'octo', email: null, avatar_url: 'https://x/o.png' })).toEqual({ id: '42', email: null, name: 'octo', image: 'https://x/o.png' })
    expect(defaultProfile(oauth, { sub: 's-1' }).id).toBe('s-1')
    await expect(userFrom(oauth, { name: 'no id' }, {})).rejects.toThrow(/expected the profile to carry an id \(id or sub\), got none/)
  })

  it('uses a custom profile callback and makes its id a string', async () => {
    const custom = { ...oauth, profile: (p: any) => ({ id: p.n, email: 'c@example.com' }) } as OAuthConfig<any>
    expect(await userFrom(custom, { n: 7 } as any, {})).toEqual({ id: '7', email: 'c@example.com' })
  })
})

describe('account', () => {
  const now = Date.UTC(2030, 0, 1)
  const tokens = { access_token: 'at', refresh_token: 'rt', id_token: 'it', token_type: 'Bearer', scope: 'openid', expires_in: 3600, session_state: 'ss', extra: 'dropped' }

  it('keeps the default fields, lower-cases token_type, computes expires_at on the request clock', () => {
    expect(defaultAccount(tokens, now)).toEqual({ access_token: 'at', refresh_token: 'rt', id_token: 'it', token_type: 'bearer', scope: 'openid', expires_at: now / 1000 + 3600, session_state: 'ss' })
    expect(accountFrom(oidc, tokens, 'sub-1', now)).toMatchObject({ userId: '', type: 'oidc', provider: 'o', providerAccountId: 'sub-1', expires_at: now / 1000 + 3600 })
  })

  it('keeps a provider-sent expires_at', () => {
    expect(defaultAccount({ ...tokens, expires_at: 123 }, now).expires_at).toBe(123)
  })

  it('stores what a custom account callback returns, and the default when it returns nothing', () => {
    const custom = { ...oauth, account: (t: any) => ({ access_token: t.access_token, expires_at: t.expires_at, note: 'mine' }) } as OAuthConfig<any>
    expect(accountFrom(custom, tokens, 'x', now)).toEqual({ access_token: 'at', expires_at: now / 1000 + 3600, note: 'mine', userId: '', type: 'oauth', provider: 'g', providerAccountId: 'x' })
    const nothing = { ...oauth, account: () => undefined } as OAuthConfig<any>
    expect(accountFrom(nothing, tokens, 'x', now).refresh_token).toBe('rt')
  })
})
