/**
 * `json=true` in the body (next-auth v4's client) asks for `200 { url }` instead of a 302, as
 * `X-Auth-Return-Redirect: 1` does, for sign-in, callbacks and sign-out, refusals included.
 */
import { describe, expect, it } from 'vitest'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

describe('json=true', () => {
  it('credentials sign-in answers { url } and sets the session cookie (form body)', async () => {
    const { handler } = testServer()
    const jar = new Jar(handler)
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace', callbackUrl: '/home', json: 'true' })
    expect(res.status).toBe(200)
    expect(res.headers.get('location')).toBeNull()
    expect(await res.json()).toEqual({ url: 'http://localhost:3000/home' })
    expect((await jar.session()).user.email).toBe('ada@example.com')
  })

  it('email sign-in answers { url } of the verify-request page (JSON body)', async () => {
    const { handler, outbox } = testServer()
    const jar = new Jar(handler)
    const res = await jar.postJson('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'ada@example.com', json: true })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { url: string }).url).toMatch(/^http:\/\/localhost:3000\/auth\/verify-request\?/)
    expect(outbox).toHaveLength(1)
  })

  it('sign-out answers { url } and clears the session', async () => {
    const { handler } = testServer()
    const jar = new Jar(handler)
    await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
    const res = await jar.postForm('/auth/signout', { csrfToken: await jar.csrf(), callbackUrl: 'http://localhost:3000/bye', json: 'true' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ url: 'http://localhost:3000/bye' })
    expect(await jar.session()).toBeNull()
  })

  it('a refused sign-in answers { url, error } with its status, and a forged CSRF token the same', async () => {
    const { handler } = testServer()
    const jar = new Jar(handler)
    const csrfToken = await jar.csrf()
    const wrong = await jar.postForm('/auth/callback/credentials', { csrfToken, username: 'ada', password: 'wrong', json: 'true' })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toEqual({ url: 'http://localhost:3000/auth/signin?error=CredentialsSignin', error: 'CredentialsSignin' })
    const forged = await jar.postForm('/auth/signout', { csrfToken: 'forged', json: 'true' })
    expect(forged.status).toBe(403)
    expect(((await forged.json()) as { error: string }).error).toBe('MissingCSRF')
  })

  it('other values of json still redirect', async () => {
    const { handler } = testServer()
    const jar = new Jar(handler)
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace', json: 'false' })
    expect(res.status).toBe(302)
  })
})
