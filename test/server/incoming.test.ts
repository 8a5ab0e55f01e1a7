import { describe, expect, it } from 'vitest'
import { WebIncoming } from '../../src/server/kernel/context.js'

describe('WebIncoming reads the path and origin without parsing the URL again', () => {
  const urls = [
    'http://localhost/auth/session',
    'http://localhost:3000/auth/session?x=1',
    'https://EXAMPLE.com:443/auth/callback/google?code=a#frag',
    'http://example.com:80/auth/signin/',
    'http://[::1]:8080/auth/csrf',
    'http://127.0.0.1/auth/../auth/./session',
    'http://example.com/auth/%7Euser/sign%20in?q=/a?b#c?d',
    'http://example.com/auth#only-a-fragment',
    'http://example.com?query-without-path',
    'http://xn--bcher-kva.example/auth/providers',
    'http://bücher.example/auth/providers',
  ]
  for (const raw of urls) {
    it(raw, () => {
      const request = new Request(raw)
      const incoming = new WebIncoming(request)
      const parsed = new URL(request.url)
      expect(incoming.pathname).toBe(parsed.pathname)
      expect(incoming.origin).toBe(parsed.origin)
      expect(incoming.url.href).toBe(parsed.href)
    })
  }
})
