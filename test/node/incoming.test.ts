import { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { NodeIncoming } from '../../src/node/incoming.js'

function incoming(url: string, host: string | undefined, method = 'GET'): NodeIncoming {
  const req = new IncomingMessage(new Socket())
  req.method = method
  req.url = url
  req.headers = host === undefined ? {} : { host }
  return new NodeIncoming(req)
}

/** What the URL parser makes of the same request: the answer the fast path must match. */
function parsed(url: string, host: string | undefined): URL | 'refused' {
  try {
    const full = new URL(`http://${host ?? 'localhost'}${url.startsWith('/') ? url : `/${url}`}`)
    return full.username || full.password ? 'refused' : full
  } catch {
    return 'refused'
  }
}

describe('NodeIncoming reads plain paths without the URL parser and agrees with it everywhere', () => {
  const hosts = [undefined, 'localhost', 'localhost:3000', 'EXAMPLE.com', 'example.com:80', '[::1]:8080', 'bücher.example', 'user:pw@example.com', 'example.com/evil', 'example.com?x', 'example.com#x', 'exa mple.com', 'example.com:99999', '']
  const paths = ['/', '/auth/session', '/auth/session/', '/auth/signin/google', '/a.b/c', '/auth/../auth/session', '/auth/./session', '/auth/.hidden', '//evil.example/x', '/auth//session', '/auth/%2e%2e/x', '/auth/sign in', '/auth/session?x=1', '/auth/session#f', '/auth\\session', 'auth/session', '', '/auth/sëssion', '/~user/a-b_c']
  for (const host of hosts) {
    it(`Host ${JSON.stringify(host)}`, () => {
      for (const path of paths) {
        const expected = parsed(path, host)
        const where = `${JSON.stringify(host)} ${JSON.stringify(path)}`
        if (expected === 'refused') {
          expect(() => incoming(path, host), where).toThrow()
          continue
        }
        const got = incoming(path, host)
        expect(got.pathname, where).toBe(expected.pathname)
        expect(got.origin, where).toBe(expected.origin)
        expect(got.url.href, where).toBe(expected.href)
      }
    })
  }

  it('refuses methods a Web Request refuses', () => {
    expect(() => incoming('/auth/session', 'localhost', 'TRACE')).toThrow()
  })
})
