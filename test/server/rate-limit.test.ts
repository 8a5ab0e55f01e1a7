import { describe, expect, it } from 'vitest'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

const json = { 'x-auth-return-redirect': '1' }

describe('rate limits through the handler', () => {
  it('a sixth email in 15 minutes to one address is refused with 429 and Retry-After, and sends nothing', async () => {
    const { handler, outbox, clock } = testServer()
    const jar = new Jar(handler)
    const send = async () => jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'Target@Example.com' }, json)
    for (let i = 0; i < 5; i++) expect((await send()).status).toBe(200)
    const refused = await send()
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({ error: 'RateLimited', url: 'http://localhost:3000/auth/error?error=RateLimited' })
    expect(outbox).toHaveLength(5)
    clock.now += 15 * 60_000
    expect((await send()).status).toBe(200)
  })

  it('an eleventh credentials attempt on one account is refused, even with the right password', async () => {
    const { handler } = testServer()
    const jar = new Jar(handler)
    const attempt = async (password: string) => jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password }, json)
    for (let i = 0; i < 10; i++) expect((await attempt('wrong')).status).toBe(401)
    const refused = await attempt('lovelace')
    expect(refused.status).toBe(429)
    expect(jar.cookies.has('latchkey.session-token')).toBe(false)
    // Another account is not held back.
    const other = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'grace', password: 'x' }, json)
    expect(other.status).toBe(401)
  })

  it('a form post past the limit lands on the error page that says so', async () => {
    const { handler } = testServer()
    const jar = new Jar(handler)
    for (let i = 0; i < 10; i++) await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'wrong' })
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'wrong' })
    expect(res.headers.get('location')).toBe('http://localhost:3000/auth/error?error=RateLimited')
    expect(await (await jar.get('/auth/error?error=RateLimited')).text()).toMatch(/Too many attempts/)
  })

  it('rateLimit: false turns them off', async () => {
    const { handler, outbox } = testServer({ rateLimit: false })
    const jar = new Jar(handler)
    for (let i = 0; i < 8; i++) await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'a@example.com' }, json)
    expect(outbox).toHaveLength(8)
  })
})
