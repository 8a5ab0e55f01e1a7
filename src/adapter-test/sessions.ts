/** Sessions: create, read with the user in one call, extend and delete. */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Adapter } from '../core/types.js'
import { later, unique, type Suite } from './fixtures.js'

export function sessionTests(suite: Suite): void {
  describe('sessions', () => {
    let adapter: Required<Adapter>
    beforeAll(() => {
      adapter = suite.adapter
    })
    const { user } = suite

    test('createSession returns the session with expires to the millisecond', async () => {
      const owner = await user()
      const expires = later(30)
      const sessionToken = `session-${unique()}`
      const session = await adapter.createSession({ sessionToken, userId: owner.id, expires })
      expect(session.sessionToken).toBe(sessionToken)
      expect(session.userId).toBe(owner.id)
      expect(session.expires).toBeInstanceOf(Date)
      expect(session.expires.getTime()).toBe(expires.getTime())
    })

    test('getSessionAndUser returns the session and its user together', async () => {
      const owner = await user({ name: 'Session owner' })
      const expires = later(7)
      const sessionToken = `session-${unique()}`
      await adapter.createSession({ sessionToken, userId: owner.id, expires })
      const found = await adapter.getSessionAndUser(sessionToken)
      expect(found).not.toBeNull()
      // What plugins' schemas read with the session (`pluginData`) is theirs: their own cases check it.
      const { pluginData: _, ...session } = found!.session
      expect(session).toEqual({ sessionToken, userId: owner.id, expires })
      expect(found!.user).toEqual(owner)
    })

    test('getSessionAndUser returns null for an unknown token', async () => {
      expect(await adapter.getSessionAndUser(`session-${unique()}`)).toBeNull()
    })

    test('updateSession moves expires and returns the session', async () => {
      const owner = await user()
      const sessionToken = `session-${unique()}`
      await adapter.createSession({ sessionToken, userId: owner.id, expires: later(1) })
      const expires = later(60)
      const updated = await adapter.updateSession({ sessionToken, expires })
      expect(updated?.expires.getTime()).toBe(expires.getTime())
      expect(updated?.userId).toBe(owner.id)
      expect((await adapter.getSessionAndUser(sessionToken))?.session.expires.getTime()).toBe(expires.getTime())
    })

    test('updateSession of an unknown token returns nothing and creates nothing', async () => {
      const sessionToken = `session-${unique()}`
      const result = await adapter.updateSession({ sessionToken, expires: later(1) })
      expect(result ?? null).toBeNull()
      expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
    })

    test('deleteSession removes the session, and not the user', async () => {
      const owner = await user()
      const sessionToken = `session-${unique()}`
      await adapter.createSession({ sessionToken, userId: owner.id, expires: later(1) })
      const deleted = await adapter.deleteSession(sessionToken)
      if (deleted) expect(deleted.sessionToken).toBe(sessionToken)
      expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
      expect(await adapter.getUser(owner.id)).not.toBeNull()
    })

    test('deleteSession of an unknown token does not throw', async () => {
      const result = await adapter.deleteSession(`session-${unique()}`)
      expect(result ?? null).toBeNull()
    })

    test('createSession throws for an unknown user', async () => {
      const sessionToken = `session-${unique()}`
      await expect(adapter.createSession({ sessionToken, userId: randomUUID(), expires: later(1) })).rejects.toThrow()
      expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
    })

    test('createSession throws for a token already in use, and keeps the first session', async () => {
      const first = await user()
      const second = await user()
      const sessionToken = `session-${unique()}`
      await adapter.createSession({ sessionToken, userId: first.id, expires: later(1) })
      await expect(adapter.createSession({ sessionToken, userId: second.id, expires: later(2) })).rejects.toThrow()
      expect((await adapter.getSessionAndUser(sessionToken))?.user.id).toBe(first.id)
    })
  })
}
