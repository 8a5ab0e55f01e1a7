import { describe, expect, test } from 'vitest'
import { AuthError } from '../../src/core/errors.js'
import Credentials from '../../src/providers/credentials.js'
import { accountFields, readCredentials } from '../../src/server/features/credentials/fields.js'

const authorize = async () => null

describe('the account field of a credentials provider', () => {
  test('accountField, else username or email (first declared), else the first field not a password', () => {
    expect(accountFields(Credentials({ credentials: { email: {}, username: {}, password: {} }, authorize }))).toEqual(['email'])
    expect(accountFields(Credentials({ credentials: { team: {}, username: {}, password: {} }, authorize }))).toEqual(['username'])
    expect(accountFields(Credentials({ credentials: { pin: { type: 'password' }, phone: { type: 'tel' } }, authorize }))).toEqual(['phone'])
    expect(accountFields(Credentials({ credentials: { team: {}, email: {} }, accountField: 'team', authorize }))).toEqual(['team'])
    expect(accountFields(Credentials({ credentials: { pin: { type: 'password' } }, authorize }))).toEqual([])
    expect(accountFields(Credentials({ authorize }))).toEqual(['username', 'email'])
  })

  test('a bad accountField is a Configuration error', () => {
    const provider = Credentials({ credentials: { email: {} }, accountField: 42 as never, authorize })
    expect(() => accountFields(provider)).toThrow('The accountField of "credentials" must be a field name, got 42')
  })
})

describe('readCredentials', () => {
  const provider = Credentials({ credentials: { email: {}, password: { type: 'password' } }, authorize })

  test('hands authorize the body less the protocol fields, and names the account', () => {
    const body = { csrfToken: 't', callbackUrl: '/', json: 'true', redirect: 'false', email: ' Carol@x.io', password: 'p', otp: '1' }
    expect(readCredentials(provider, body)).toEqual({ credentials: { email: ' Carol@x.io', password: 'p', otp: '1' }, accounts: [' Carol@x.io'] })
    expect(readCredentials(provider, { password: 'p' }).accounts).toEqual([])
  })

  test('refuses a declared field that is not a string, saying what it got', () => {
    const refused = (body: Record<string, unknown>) => {
      try {
        readCredentials(provider, body)
      } catch (error) {
        expect(error).toBeInstanceOf(AuthError)
        expect((error as AuthError).status).toBe(400)
        return (error as AuthError).message
      }
      throw new Error('expected InvalidRequest')
    }
    expect(refused({ email: ['a@x.io'] })).toBe('Expected "email" to be a string, got an array')
    expect(refused({ email: { $ne: null } })).toBe('Expected "email" to be a string, got object')
    expect(refused({ email: null })).toBe('Expected "email" to be a string, got null')
    expect(refused({ email: 'a@x.io', password: 7 })).toBe('Expected "password" to be a string, got number')
    // A field the provider does not declare is passed through as it came.
    expect(readCredentials(provider, { email: 'a@x.io', extra: [1] }).credentials.extra).toEqual([1])
  })

  test('a JSON "__proto__" field stays a field, and lends the credentials no account', () => {
    const body = JSON.parse('{"__proto__": {"email": "carol@x.io"}, "password": "p"}')
    const { credentials, accounts } = readCredentials(provider, body)
    expect(accounts).toEqual([])
    expect(credentials.email).toBeUndefined()
    expect(Object.getPrototypeOf(credentials)).toBe(Object.prototype)
  })
})
