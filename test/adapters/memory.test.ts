import { describe, expect, test } from 'vitest'
import { runAdapterTests } from '../../src/adapter-test/index.js'
import { AdapterError } from '../../src/adapters/errors.js'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { schemaPlugins } from './schema-plugins.js'

// With a plugin's schema: its methods are joined, and its own cases run too.
const plugins = schemaPlugins
runAdapterTests({ name: 'memory', adapter: () => MemoryAdapter({ plugins }), plugins })

describe('memory adapter specifics', () => {
  test('rule violations are AdapterErrors with a code', async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ id: 'u1', email: 'a@example.test', emailVerified: null })
    await expect(adapter.createUser({ id: 'u2', email: 'a@example.test', emailVerified: null })).rejects.toMatchObject({
      name: 'AdapterError',
      code: 'DuplicateEmail',
    })
    await expect(adapter.updateAuthenticatorCounter('missing', 1)).rejects.toMatchObject({ code: 'UnknownAuthenticator' })
    await expect(adapter.createSession({ sessionToken: 's', userId: 'nobody', expires: new Date() })).rejects.toBeInstanceOf(AdapterError)
    await expect(adapter.createSession({ sessionToken: 's', userId: user.id, expires: new Date('nope') })).rejects.toThrow(
      /createSession: expected expires to be a valid Date, got an invalid Date/,
    )
  })

  test('createUser without an id gets a generated one', async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ email: 'b@example.test', emailVerified: null } as never)
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/)
  })

  test('clear forgets everything', async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ id: 'u1', email: 'c@example.test', emailVerified: null })
    adapter.clear()
    expect(await adapter.getUser(user.id)).toBeNull()
  })

  test('a stored account does not share objects with the one passed in', async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: 'u1', email: 'd@example.test', emailVerified: null })
    const details = [{ type: 'x', actions: ['read'] }]
    await adapter.linkAccount({ userId: 'u1', type: 'oauth', provider: 'p', providerAccountId: '1', authorization_details: details })
    details[0]!.actions.push('write')
    expect((await adapter.getAccount('1', 'p'))?.authorization_details).toEqual([{ type: 'x', actions: ['read'] }])
  })

  test('a session read hands out copies: changing its dates or user changes nothing stored', async () => {
    const adapter = MemoryAdapter()
    const verified = new Date('2026-01-01T00:00:00Z')
    await adapter.createUser({ id: 'u1', email: 'e@example.test', emailVerified: verified, name: 'E' })
    verified.setTime(0)
    await adapter.createSession({ sessionToken: 't1', userId: 'u1', expires: new Date('2026-02-01T00:00:00Z') })
    const first = (await adapter.getSessionAndUser('t1'))!
    first.session.expires.setTime(0)
    first.user.emailVerified!.setTime(0)
    first.user.name = 'changed'
    const again = (await adapter.getSessionAndUser('t1'))!
    expect(again.session.expires.toISOString()).toBe('2026-02-01T00:00:00.000Z')
    expect(again.user.emailVerified?.toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect(again.user.name).toBe('E')
    expect(again.session.expires).toBeInstanceOf(Date)
  })
})
