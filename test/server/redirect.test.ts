import { describe, expect, it } from 'vitest'
import { defaultRedirect } from '../../src/server/kernel/redirect-url.js'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

describe('redirect validation', () => {
  const baseUrl = 'https://app.example.com'
  it.each([
    ['/dashboard', 'https://app.example.com/dashboard'],
    ['/a?b=c#d', 'https://app.example.com/a?b=c#d'],
    ['https://app.example.com/x', 'https://app.example.com/x'],
    ['https://evil.example.com/x', 'https://app.example.com'],
    ['//evil.example.com/x', 'https://app.example.com'],
    ['/\\evil.example.com', 'https://app.example.com'],
    ['javascript:alert(1)', 'https://app.example.com'],
    ['http://app.example.com/x', 'https://app.example.com'],
    ['https://app.example.com.evil.com/', 'https://app.example.com'],
  ])('%s -> %s', (url, expected) => {
    expect(defaultRedirect({ url, baseUrl })).toBe(expected)
  })

  it('a sign-in with a foreign callbackUrl lands on the origin', async () => {
    const { handler } = testServer()
    const jar = new Jar(handler)
    const res = await jar.postForm('/auth/callback/credentials', {
      csrfToken: await jar.csrf(),
      username: 'ada',
      password: 'lovelace',
      callbackUrl: 'https://evil.example.com/steal',
    })
    expect(res.headers.get('location')).toBe('http://localhost:3000')
  })
})
