/** Which checks each provider performs: the defaults, `none`, and the redirect proxy's `state`. */
import { describe, expect, it } from 'vitest'
import type { OAuthConfig } from '../../src/core/types.js'
import type { Context } from '../../src/server/kernel/context.js'
import { checksOf } from '../../src/server/features/oauth/checks.js'

const ctx = (redirectProxyUrl?: string) => ({ config: { redirectProxyUrl } }) as unknown as Context
const provider = (type: 'oauth' | 'oidc', extra: object = {}) => ({ id: 'p', name: 'P', type, jwks_endpoint: undefined, ...extra }) as OAuthConfig<any>

describe('checks', () => {
  it('defaults to pkce for oauth and pkce + nonce for oidc', () => {
    expect([...checksOf(ctx(), provider('oauth'))]).toEqual(['pkce'])
    expect([...checksOf(ctx(), provider('oidc'))]).toEqual(['pkce', 'nonce'])
  })

  it('turns checks off with none, and keeps the configured ones', () => {
    expect([...checksOf(ctx(), provider('oauth', { checks: ['none'] }))]).toEqual([])
    expect([...checksOf(ctx(), provider('oidc', { checks: ['state', 'nonce'] }))]).toEqual(['state', 'nonce'])
  })

  it('adds state when a redirect proxy is configured, on the provider or for all', () => {
    expect(checksOf(ctx('https://proxy.example/auth'), provider('oauth')).has('state')).toBe(true)
    expect(checksOf(ctx(), provider('oauth', { redirectProxyUrl: 'https://proxy.example/auth', checks: ['none'] })).has('state')).toBe(true)
  })

  it('refuses a nonce on plain OAuth 2 and unknown checks', () => {
    expect(() => checksOf(ctx(), provider('oauth', { checks: ['nonce'] }))).toThrow(/the "nonce" check needs type "oidc", got "oauth"/)
    expect(() => checksOf(ctx(), provider('oidc', { checks: ['pkce', 'magic'] }))).toThrow(/expected checks among none, state, pkce, nonce, got "magic"/)
  })
})
