import { describe, expect, it } from 'vitest'
import type { OAuthConfig } from '../../src/core/types.js'
import { mergeEndpoint, mergeProvider } from '../../src/providers/lib/index.js'

const defaults: OAuthConfig<any> = {
  id: 'demo',
  name: 'Demo',
  type: 'oauth',
  jwks_endpoint: undefined,
  authorization: { url: 'https://demo.test/authorize', params: { scope: 'read', prompt: 'consent' } },
  token: 'https://demo.test/token',
  userinfo: { url: 'https://demo.test/me', request: async () => ({ sub: '1' }) },
  checks: ['state'],
  client: { token_endpoint_auth_method: 'client_secret_post' },
  style: { brandColor: '#000000', logo: '/demo.svg' },
}

describe('mergeEndpoint', () => {
  it('keeps the default when there is no override', () => {
    expect(mergeEndpoint('https://a', undefined)).toBe('https://a')
  })
  it('replaces a string with a string', () => {
    expect(mergeEndpoint('https://a', 'https://b')).toBe('https://b')
  })
  it('replaces only the URL of an object given a string', () => {
    expect(mergeEndpoint({ url: 'https://a', params: { scope: 'x' } }, 'https://b')).toEqual({ url: 'https://b', params: { scope: 'x' } })
  })
  it('merges params key by key', () => {
    expect(mergeEndpoint({ url: 'https://a', params: { scope: 'x', prompt: 'consent' } }, { params: { scope: 'y' } })).toEqual({
      url: 'https://a',
      params: { scope: 'y', prompt: 'consent' },
    })
  })
  it('turns a default string into an object when the override is one', () => {
    expect(mergeEndpoint('https://a', { params: { scope: 'y' } })).toEqual({ url: 'https://a', params: { scope: 'y' } })
  })
})

describe('mergeProvider', () => {
  it('returns the defaults and the options when nothing is overridden', () => {
    const merged = mergeProvider(defaults, { clientId: 'c' })
    expect(merged).toMatchObject({ ...defaults, clientId: 'c', options: { clientId: 'c' } })
  })

  it('lets every option win, deeply for endpoints, style and client', () => {
    const request = async () => ({ sub: '2' })
    const merged = mergeProvider(defaults, {
      id: 'other',
      authorization: { params: { scope: 'write' } },
      userinfo: { request },
      checks: ['pkce'],
      client: { id_token_signed_response_alg: 'RS256' },
      style: { logo: '/other.svg' },
    })
    expect(merged.id).toBe('other')
    expect(merged.authorization).toEqual({ url: 'https://demo.test/authorize', params: { scope: 'write', prompt: 'consent' } })
    expect(merged.userinfo).toEqual({ url: 'https://demo.test/me', request })
    expect(merged.token).toBe('https://demo.test/token')
    expect(merged.checks).toEqual(['pkce'])
    expect(merged.client).toEqual({ token_endpoint_auth_method: 'client_secret_post', id_token_signed_response_alg: 'RS256' })
    expect(merged.style).toEqual({ brandColor: '#000000', logo: '/other.svg' })
  })

  it('ignores options given as undefined and does not touch the defaults', () => {
    const before = structuredClone({ ...defaults, userinfo: undefined })
    const merged = mergeProvider(defaults, { name: undefined, token: undefined })
    expect(merged.name).toBe('Demo')
    expect(merged.token).toBe('https://demo.test/token')
    expect({ ...defaults, userinfo: undefined }).toEqual(before)
  })
})
