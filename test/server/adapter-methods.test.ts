import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Email from '../../src/providers/email.js'
import { Latchkey } from '../../src/server/index.js'
import { Jar } from '../support/jar.js'
import { testSecret } from '../support/server.js'

describe('missing adapter methods', () => {
  it('are named at start-up and at call time, shown on the error page, never a crash', async () => {
    const full = MemoryAdapter()
    const { createVerificationToken: _c, useVerificationToken: _u, ...partial } = full
    const logs: string[] = []
    const handler = Latchkey({
      secret: testSecret,
      adapter: partial,
      providers: [Email({ sendVerificationRequest: () => {} })],
      logger: { error: (e) => logs.push(e.message), warn: () => {}, debug: () => {} },
    })
    expect(logs[0]).toMatch(/lacks createVerificationToken, useVerificationToken/)
    const jar = new Jar(handler)
    const res = await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'a@b.co' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('http://localhost:3000/auth/error?error=Configuration')
    expect(logs.at(-1)).toMatch(/The adapter lacks createVerificationToken, needed for email sign-in/)
    const page = await jar.get('/auth/error?error=Configuration')
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/problem with the server configuration/)
  })

  it('a database strategy without an adapter is refused at start-up', () => {
    expect(() => Latchkey({ secret: testSecret, providers: [], session: { strategy: 'database' } })).toThrow(/needs an adapter/)
  })

  it('a missing secret is refused at start-up with a clear message', () => {
    const saved = process.env.AUTH_SECRET
    delete process.env.AUTH_SECRET
    try {
      expect(() => Latchkey({ providers: [] })).toThrow(/a secret is required/)
      expect(() => Latchkey({ providers: [], secret: 'short' })).toThrow(/at least 16 characters/)
      expect(() => Latchkey({ providers: [], secret: 'short' })).toThrow(expect.objectContaining({ code: 'WeakSecret', message: expect.stringMatching(/5 characters.*npx latchkey secret.*openssl rand/) }))
    } finally {
      if (saved !== undefined) process.env.AUTH_SECRET = saved
    }
  })
})
