/**
 * Sessions minted by the real Auth.js libraries, to hand latchkey: `@auth/core` 0.41 signing in
 * with credentials (JWT) or an email link (a database session through the adapter given), and
 * next-auth 4's own JWT encoder.
 */
import { Auth, type AuthConfig as AuthjsConfig } from '@auth/core'
import type { Adapter as AuthjsAdapter } from '@auth/core/adapters'
import Credentials from '@auth/core/providers/credentials'
import Nodemailer from '@auth/core/providers/nodemailer'
import { encode as encodeV4 } from 'next-auth/jwt'
import { expect } from 'vitest'
import { Jar } from '../support/jar.js'

/** Auth.js's secret: another than latchkey's, as a team that moves may keep both for a while. */
export const authjsSecret = 'the-old-authjs-secret-0123456789-abcdefghij'

export const oldUser = { id: 'user-ada', name: 'Ada', email: 'ada@example.com', image: 'https://example.com/ada.png' }

/**
 * Signs in with `@auth/core` (credentials, JWT strategy) and answers the browser's cookies. Its
 * `jwt` callback keeps a `role` claim and any `claims` given; `padding` adds a claim that long (to make it chunk).
 */
export async function authjsJwtCookies(options: { origin?: string; padding?: number; secret?: string; claims?: Record<string, unknown> } = {}): Promise<Map<string, string>> {
  const config: AuthjsConfig = {
    secret: options.secret ?? authjsSecret,
    trustHost: true,
    basePath: '/auth',
    session: { strategy: 'jwt' },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [Credentials({ credentials: { username: {} }, authorize: () => oldUser })],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.role = 'editor'
          if (options.padding) token.padding = 'p'.repeat(options.padding)
          Object.assign(token, options.claims)
        }
        return token
      },
    },
  }
  const jar = new Jar((request) => Auth(request, config), options.origin ?? 'http://localhost:3000')
  const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada' })
  expect(res.status).toBe(302)
  expect(res.headers.get('location')).not.toMatch(/error/)
  return sessionCookiesOf(jar.cookies)
}

/** Signs in with `@auth/core` through an email link, storing the session with `adapter`; answers the browser's cookies. */
export async function authjsDatabaseCookies(adapter: AuthjsAdapter, email: string): Promise<Map<string, string>> {
  let link: string | undefined
  const config: AuthjsConfig = {
    secret: authjsSecret,
    trustHost: true,
    basePath: '/auth',
    adapter,
    session: { strategy: 'database' },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [Nodemailer({ server: 'smtp://127.0.0.1:1', from: 'login@example.com', sendVerificationRequest: ({ url }) => void (link = url) })],
  }
  const jar = new Jar((request) => Auth(request, config))
  await jar.postForm('/auth/signin/nodemailer', { csrfToken: await jar.csrf(), email })
  expect(link).toBeDefined()
  const res = await jar.get(new URL(link!).pathname + new URL(link!).search)
  expect(res.status).toBe(302)
  expect(res.headers.get('location')).not.toMatch(/error/)
  return sessionCookiesOf(jar.cookies)
}

/** A next-auth 4 JWT session cookie, from its own encoder (no salt, A256GCM). `maxAge` in seconds. */
export async function nextAuth4Cookie(options: { maxAge?: number; secret?: string; claims?: Record<string, unknown> } = {}): Promise<Map<string, string>> {
  const token = await encodeV4({
    token: { sub: oldUser.id, name: oldUser.name, email: oldUser.email, picture: oldUser.image, role: 'editor', ...options.claims },
    secret: options.secret ?? authjsSecret,
    maxAge: options.maxAge ?? 30 * 86400,
  })
  return new Map([['next-auth.session-token', token]])
}

/** Only the session cookies (and their chunks): the browser's other Auth.js cookies play no part. */
function sessionCookiesOf(cookies: Map<string, string>): Map<string, string> {
  return new Map([...cookies].filter(([name]) => /session-token/.test(name)))
}
