/** Configuration mistakes are refused at start-up as one kind of error: `AuthError` with code `Configuration`, saying the fix. */
import { describe, expect, it } from 'vitest'
import { AuthError } from '../../src/core/errors.js'
import type { AuthConfig } from '../../src/core/types.js'
import { Latchkey } from '../../src/server/latchkey.js'
import { MemoryAdapter } from '../../src/adapters/memory.js'

const secret = 'config-errors-test-secret-0123456789'

describe('configuration errors', () => {
  const cases: Array<[string, Partial<AuthConfig>, RegExp]> = [
    ['a database strategy without an adapter', { session: { strategy: 'database' } }, /needs an adapter/],
    ['updateAge over maxAge', { session: { maxAge: 60, updateAge: 120 } }, /updateAge <= session.maxAge/],
    ['a relative origin', { origin: 'app.example.com' }, /absolute http\(s\) URL/],
    ['a basePath without its slash', { basePath: 'auth' }, /must start with "\/"/],
    ['two providers with one id', { providers: [{ id: 'x', name: 'X', type: 'email', sendVerificationRequest: () => {} } as never, { id: 'x', name: 'X', type: 'email', sendVerificationRequest: () => {} } as never], adapter: MemoryAdapter() }, /share the id "x"/],
    ['a provider type no sign-in method runs', { providers: [{ id: 'odd', name: 'Odd', type: 'carrier-pigeon' } as never] }, /no sign-in method runs/],
    ['an unknown rate-limit action', { rateLimit: { rules: { teleport: [] } as never } }, /unknown action "teleport"/],
    ['a bad trustProxy', { rateLimit: { trustProxy: -1 as never } }, /trustProxy/],
  ]
  it.each(cases)('%s', (_, config, message) => {
    let thrown: unknown
    try {
      Latchkey({ secret, providers: [], ...config })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(AuthError)
    expect(thrown).toMatchObject({ code: 'Configuration', type: 'Configuration', message: expect.stringMatching(message) })
  })
})
