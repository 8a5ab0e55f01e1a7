import { describe, expect, it } from 'vitest'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'

describe('credentials sign-in', () => {
  it('signs in with the user authorize returns, and X-Auth-Return-Redirect answers JSON', async () => {
    const { handler, adapter } = testServer()
    const jar = new Jar(handler)
    const res = await jar.postForm(
      '/auth/callback/credentials',
      { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace', callbackUrl: '/home' },
      { 'x-auth-return-redirect': '1' },
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ url: 'http://localhost:3000/home' })
    expect((await jar.session()).user).toMatchObject({ id: 'user-ada', email: 'ada@example.com', name: 'Ada' })
    expect(await adapter.getUser('user-ada')).toMatchObject({ email: 'ada@example.com', emailVerified: null })
  })

  it('null from authorize is CredentialsSignin and creates nothing', async () => {
    const { handler, adapter } = testServer()
    const jar = new Jar(handler)
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'wrong' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('http://localhost:3000/auth/signin?error=CredentialsSignin')
    expect(jar.cookies.has('latchkey.session-token')).toBe(false)
    expect(await adapter.getUser('user-ada')).toBeNull()
    const json = await jar.postForm(
      '/auth/callback/credentials',
      { csrfToken: await jar.csrf(), username: 'x', password: 'y' },
      { 'x-auth-return-redirect': '1' },
    )
    expect(json.status).toBe(401)
    expect(await json.json()).toMatchObject({ error: 'CredentialsSignin' })
  })

  it('POST /signin/credentials works like the callback', async () => {
    const { handler } = testServer({ strategy: 'jwt' })
    const jar = new Jar(handler)
    await jar.postForm('/auth/signin/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
    expect((await jar.session()).user.email).toBe('ada@example.com')
  })

  it('a throwing authorize is logged in full and shown only as CredentialsSignin', async () => {
    const { default: Credentials } = await import('../../src/providers/credentials.js')
    const { handler, logs } = testServer({
      providers: [Credentials({ authorize: () => Promise.reject(new Error('database password is hunter2')) })],
    })
    const jar = new Jar(handler)
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf() }, { 'x-auth-return-redirect': '1' })
    const body = await res.text()
    expect(body).not.toContain('hunter2')
    expect(JSON.parse(body).error).toBe('CredentialsSignin')
    expect(logs.join('\n')).toContain('hunter2')
  })

  it('the session and update callbacks shape the session JSON (jwt)', async () => {
    const { handler } = testServer({
      strategy: 'jwt',
      callbacks: {
        jwt: ({ token, trigger, session }) => (trigger === 'update' ? { ...token, theme: (session as any).theme } : token),
        session: ({ session, token }) => ({ ...session, theme: token?.theme ?? 'light' }),
      },
    })
    const jar = new Jar(handler)
    await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
    expect((await jar.session()).theme).toBe('light')
    const res = await jar.postJson('/auth/session', { csrfToken: await jar.csrf(), data: { theme: 'dark' } })
    expect((await res.json()).theme).toBe('dark')
    expect((await jar.session()).theme).toBe('dark')
  })
})

describe('credentials with an adapter', () => {
  it('a new user without an email is refused clearly, and nothing is created', async () => {
    const { default: Credentials } = await import('../../src/providers/credentials.js')
    const { handler, adapter, logs } = testServer({ providers: [Credentials({ authorize: () => ({ id: 'no-email' }) })] })
    const jar = new Jar(handler)
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf() })
    expect(res.headers.get('location')).toMatch(/error=Configuration/)
    expect(await adapter.getUser('no-email')).toBeNull()
    expect(logs.join('\n')).toMatch(/no email to create it with/)
  })
})
