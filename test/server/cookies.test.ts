/**
 * Cookies a feature declares (kernel/cookies.ts `cookieKey`, `LatchkeyPlugin.cookies`, issue 42): the
 * kernel names only its own (session, CSRF token, callback URL); each feature's are claimed once
 * per instance at start-up, and two claims of one name are a configuration error that says which.
 * The names on the wire stay as they were.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AuthError } from '../../src/core/errors.js'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { resolveConfig } from '../../src/server/kernel/config.js'
import { cookieKey, cookieNames } from '../../src/server/kernel/cookies.js'
import type { LatchkeyPlugin } from '../../src/server/kernel/plugin.js'
import { instanceParts } from '../../src/server/latchkey.js'
import { testSecret } from '../support/server.js'
import type { AuthConfig } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import Passkey from '../../src/providers/passkey.js'
import Password from '../../src/providers/password.js'

// Every built-in plugin in use: a provider of each way in, second factors, device binding and the Auth.js migration.
const config = (): AuthConfig => ({
  secret: testSecret,
  adapter: MemoryAdapter(),
  providers: [
    { id: 'idp', name: 'IdP', type: 'oidc', issuer: 'https://idp.example', clientId: 'c', clientSecret: 's' },
    { id: 'email', name: 'Email', type: 'email', sendVerificationRequest: async () => {} },
    Credentials({ authorize: async () => null }),
    Passkey(),
    Password({ sendEmail: async () => {} }),
  ] as AuthConfig['providers'],
  mfa: true,
  session: { deviceBound: true },
  migrateFrom: { authjs: { until: new Date(Date.now() + 86_400_000) } },
})

/** Every `cookieKey('name')` made under src/server, read from the source. */
function declaredInSource(dir = 'src/server'): string[] {
  const found: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...declaredInSource(path))
    else if (path.endsWith('.ts')) for (const m of readFileSync(path, 'utf8').matchAll(/cookieKey\('([^']+)'\)/g)) found.push(m[1])
  }
  return found
}

function startUpError(parts: readonly LatchkeyPlugin[]): unknown {
  try {
    resolveConfig(config(), parts)
  } catch (error) {
    return error
  }
}

describe('cookies declared by features', () => {
  it('an instance claims every feature cookie, by its owner, with the names the wire always had', () => {
    const resolved = resolveConfig(config(), instanceParts)
    const owners = Object.fromEntries([...resolved.cookies].map(([name, { owner }]) => [name, owner]))
    expect(owners).toEqual({
      confirm: 'sign-in',
      'pkce.code_verifier': 'oauth',
      state: 'oauth',
      nonce: 'oauth',
      'email-request': 'email',
      challenge: 'webauthn',
      upgrade: 'webauthn',
      bound: 'dbsc',
      'mfa-pending': 'mfa',
      'mfa-device': 'mfa',
    })
    const pending = resolved.cookies.get('mfa-pending')!.key
    expect(pending.of({ secure: false })).toBe('latchkey.mfa-pending')
    expect(pending.of({ secure: true })).toBe('__Host-latchkey.mfa-pending')
  })

  it('every cookie key made in src/server is declared by a part of the instance', () => {
    const claimed = resolveConfig(config(), instanceParts).cookies
    const made = declaredInSource()
    expect(made.length).toBeGreaterThan(0)
    for (const name of made) expect(claimed.has(name), `cookieKey('${name}') is declared in no LatchkeyPlugin.cookies`).toBe(true)
  })

  it('the kernel names only its own cookies', () => {
    expect(cookieNames(false)).toEqual({ sessionToken: 'latchkey.session-token', csrfToken: 'latchkey.csrf-token', callbackUrl: 'latchkey.callback-url' })
    expect(cookieNames(true)).toEqual({ sessionToken: '__Host-latchkey.session-token', csrfToken: '__Host-latchkey.csrf-token', callbackUrl: '__Host-latchkey.callback-url' })
  })

  it('two features that claim one cookie name are refused at start-up, naming both', () => {
    const phone: LatchkeyPlugin = { id: 'phone', cookies: [cookieKey('mfa-pending')] }
    const error = startUpError([...instanceParts, phone])
    expect(error).toBeInstanceOf(AuthError)
    expect(error).toMatchObject({
      type: 'Configuration',
      message: 'latchkey: plugins "mfa" and "phone" both declare the cookie latchkey.mfa-pending; each cookie has one owner, so give one of them another name',
    })
  })

  it("a feature that claims one of the kernel's cookies is refused at start-up", () => {
    const error = startUpError([{ id: 'thief', cookies: [cookieKey('session-token')] }])
    expect(error).toMatchObject({ type: 'Configuration', message: expect.stringContaining('plugin "thief" declares the cookie latchkey.session-token, which is the kernel\'s own') })
  })

  it('a cookie name outside the cookie-token characters is refused where it is made', () => {
    expect(() => cookieKey('mfa pending')).toThrow('latchkey: a cookie name is letters, digits, ".", "_" and "-", got "mfa pending"')
  })
})

describe("the request's context carries no feature's fields", () => {
  it('json=true, the confirming user and the callback URL a callback was sent are request keys, not Context fields', () => {
    const ctx = { names: cookieNames(false) } as import('../../src/server/kernel/context.js').Context
    // @ts-expect-error: json=true is kept by kernel/body.ts (askedForJson), read through ctx.returnRedirect
    void ctx.jsonRequested
    // @ts-expect-error: the confirming user is kept by sign-in/confirm.ts
    void ctx.confirmUser
    // @ts-expect-error: the callback URL is kept by kernel/redirect-url.ts (noteCallbackUrl, signInCallbackUrl)
    void ctx.callbackCandidate
    expect(Object.keys(ctx.names)).toEqual(['sessionToken', 'csrfToken', 'callbackUrl'])
  })
})
