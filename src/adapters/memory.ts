/**
 * An adapter that keeps everything in this process's memory: for tests and quick experiments.
 * It keeps the same rules as the SQL adapter (unique email, unique account, unique credential,
 * cascade on deleteUser, single-use verification tokens and recovery codes) so code tested
 * against it behaves the same against a database. Every record handed out is a copy, so callers cannot change the store.
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterFactor, AdapterSession, AdapterUser, VerificationToken } from '../core/types.js'
import { judgeAttempt, requireAttempt, requireCode, type CountedCode } from './verification-codes.js'
import { checkAccountUpdate } from './account-changes.js'
import { AdapterError } from './errors.js'
import { configurationError } from '../core/errors.js'
import { requireFactor, requireRecoveryCodes, requireStep } from './factors.js'
import { requirePasswordHash } from './passwords.js'
import { accountKey, authenticatorRecord, copy, given, tokenKey, userRecord } from './memory-records.js'
import type { CompleteAdapter } from './types.js'
import { joinPluginMethods, schemaPlugins, type SchemaPlugin } from './plugin-schema.js'
import {
  requireAmr,
  requireBoolean,
  requireCounter,
  requireDate,
  requireDateOrNull,
  requireString,
  requireStringOrNull,
  requireExpiredFilter,
  requireTokenFilter,
} from './validate.js'

export interface MemoryAdapter extends CompleteAdapter {
  /** Forgets every record. */
  clear(): void
}

export interface MemoryAdapterOptions {
  /** Plugins whose schema (`LatchkeyPlugin.schema`) adds records: their `memory()` methods are joined to the adapter. */
  plugins?: readonly SchemaPlugin[]
}

/** Marks a MemoryAdapter, so `latchkey doctor` can say that one in production loses everything on a restart; global, so two copies of latchkey agree. */
export const inMemory: unique symbol = Symbol.for('latchkey.inMemory')

export function MemoryAdapter(options: MemoryAdapterOptions = {}): MemoryAdapter {
  const withSchema = schemaPlugins(options.plugins, 'MemoryAdapter')
  /** The plugins' method names, so `clear` can give them new, empty stores. */
  let pluginMethods: string[] = []
  /** The plugins' session reads (`PluginSchema.sessionRead`): each plugin's method, called beside the session's read. */
  let sessionReads: Array<{ id: string; read: (sessionToken: string, userId: string) => Promise<unknown> }> = []
  const joinPlugins = () => {
    for (const name of pluginMethods) delete (adapter as unknown as Record<string, unknown>)[name]
    const before = new Set(Object.keys(adapter))
    sessionReads = []
    joinPluginMethods(
      adapter,
      withSchema,
      (schema) => {
        const methods = schema.memory()
        const read = schema.sessionRead && methods[schema.sessionRead.method]
        if (schema.sessionRead && typeof read !== 'function') throw configurationError(`MemoryAdapter: a plugin's sessionRead names the method ${schema.sessionRead.method}, which its memory() lacks`)
        const id = withSchema.find((p) => p.schema === schema)!.id
        if (read) sessionReads.push({ id, read })
        return methods
      },
      'MemoryAdapter',
    )
    pluginMethods = Object.keys(adapter).filter((name) => !before.has(name))
  }
  const users = new Map<string, AdapterUser>()
  const userIdByEmail = new Map<string, string>()
  const accounts = new Map<string, AdapterAccount>()
  const sessions = new Map<string, AdapterSession>()
  const tokens = new Map<string, VerificationToken>()
  const codes = new Map<string, CountedCode>()
  const authenticators = new Map<string, AdapterAuthenticator>()
  const factors = new Map<string, AdapterFactor>()
  /** Recovery-code hashes by user id. */
  const recoveryCodes = new Map<string, Set<string>>()
  /** Password hashes by user id (strings: nothing shared by reference). */
  const passwordHashes = new Map<string, string>()

  function requireUser(method: string, userId: unknown): AdapterUser {
    const id = requireString(method, 'userId', userId)
    const user = users.get(id)
    if (!user) throw new AdapterError('UnknownUser', `${method}: expected an existing user, but no user has id "${id}"`)
    return user
  }

  function checkUser(method: string, user: Partial<AdapterUser>): void {
    if (user.email !== undefined) requireString(method, 'email', user.email)
    if (user.emailVerified !== undefined) requireDateOrNull(method, 'emailVerified', user.emailVerified)
    if (user.name !== undefined) requireStringOrNull(method, 'name', user.name)
    if (user.image !== undefined) requireStringOrNull(method, 'image', user.image)
  }

  const adapter: MemoryAdapter = {
    clear() {
      for (const map of [users, userIdByEmail, accounts, sessions, tokens, codes, authenticators, factors, recoveryCodes, passwordHashes]) map.clear()
      joinPlugins()
    },

    // In this process's memory: it answers whenever the process does.
    async ping() {},

    // ------------------------------------------------------------ users

    async createUser(user) {
      checkUser('createUser', user)
      const email = requireString('createUser', 'email', user.email)
      const id = typeof user.id === 'string' && user.id.length > 0 ? user.id : crypto.randomUUID()
      if (users.has(id)) throw new AdapterError('DuplicateUser', `createUser: a user with id "${id}" already exists`)
      if (userIdByEmail.has(email)) {
        throw new AdapterError('DuplicateEmail', `createUser: expected a new email address, but a user with this email already exists`)
      }
      const stored = userRecord({ ...user, id, email, emailVerified: user.emailVerified ?? null })
      users.set(id, stored)
      userIdByEmail.set(email, id)
      return copy(stored)
    },

    async getUser(id) {
      const user = users.get(id)
      return user ? copy(user) : null
    },

    async getUserByEmail(email) {
      const id = userIdByEmail.get(email)
      const user = id === undefined ? undefined : users.get(id)
      return user ? copy(user) : null
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      const user = account && users.get(account.userId)
      return user ? copy(user) : null
    },

    async updateUser(changes) {
      const current = requireUser('updateUser', changes.id)
      checkUser('updateUser', changes)
      const next = userRecord({ ...current, ...given(changes), id: current.id })
      if (next.email !== current.email) {
        if (userIdByEmail.has(next.email)) {
          throw new AdapterError('DuplicateEmail', `updateUser: expected a new email address, but another user has this email`)
        }
        userIdByEmail.delete(current.email)
        userIdByEmail.set(next.email, next.id)
      }
      users.set(next.id, next)
      return copy(next)
    },

    async deleteUser(userId) {
      const user = users.get(userId)
      if (!user) return null
      users.delete(userId)
      userIdByEmail.delete(user.email)
      for (const [key, account] of accounts) if (account.userId === userId) accounts.delete(key)
      for (const [key, session] of sessions) if (session.userId === userId) sessions.delete(key)
      for (const [key, authenticator] of authenticators) if (authenticator.userId === userId) authenticators.delete(key)
      for (const [key, factor] of factors) if (factor.userId === userId) factors.delete(key)
      recoveryCodes.delete(userId)
      passwordHashes.delete(userId)
      return copy(user)
    },

    // ------------------------------------------------------------ accounts

    async linkAccount(account) {
      requireUser('linkAccount', account.userId)
      const provider = requireString('linkAccount', 'provider', account.provider)
      const providerAccountId = requireString('linkAccount', 'providerAccountId', account.providerAccountId)
      requireString('linkAccount', 'type', account.type)
      const key = accountKey(provider, providerAccountId)
      if (accounts.has(key)) {
        throw new AdapterError(
          'DuplicateAccount',
          `linkAccount: expected a new account, but provider "${provider}" account "${providerAccountId}" is already linked`,
        )
      }
      const stored = copy(account)
      accounts.set(key, stored)
      return copy(stored)
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const key = accountKey(provider, providerAccountId)
      const account = accounts.get(key)
      if (!account) return undefined
      accounts.delete(key)
      return copy(account)
    },

    async getAccount(providerAccountId, provider) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      return account ? copy(account) : null
    },

    async listAccountsByUserId(userId) {
      return [...accounts.values()].filter((a) => a.userId === userId).map(copy)
    },

    async updateAccount(input, options) {
      const { provider, providerAccountId, changes, ifRefreshToken } = checkAccountUpdate(input, options)
      const key = accountKey(provider, providerAccountId)
      const current = accounts.get(key)
      if (!current) return null
      if (ifRefreshToken !== undefined && (current.refresh_token ?? null) !== ifRefreshToken) return null
      const next: Record<string, unknown> = { ...current }
      for (const [field, value] of Object.entries(changes)) {
        if (value === null) delete next[field]
        else next[field] = value
      }
      accounts.set(key, next as AdapterAccount)
      return copy(next as AdapterAccount)
    },

    // ------------------------------------------------------------ sessions

    async createSession(session) {
      const sessionToken = requireString('createSession', 'sessionToken', session.sessionToken)
      const expires = requireDate('createSession', 'expires', session.expires)
      const user = requireUser('createSession', session.userId)
      if (sessions.has(sessionToken)) {
        throw new AdapterError('DuplicateSession', 'createSession: expected a new session token, but this one is already in use')
      }
      const stored: AdapterSession = { sessionToken, userId: user.id, expires: new Date(expires) }
      if (session.createdAt !== undefined) stored.createdAt = new Date(requireDate('createSession', 'createdAt', session.createdAt))
      if (session.userAgent != null) stored.userAgent = requireString('createSession', 'userAgent', session.userAgent)
      if (session.signInProvider != null) stored.signInProvider = requireString('createSession', 'signInProvider', session.signInProvider)
      if (session.amr != null) stored.amr = [...requireAmr('createSession', session.amr)]
      sessions.set(sessionToken, stored)
      return copy(stored)
    },

    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = session && users.get(session.userId)
      if (!session || !user) return null
      let marked = false
      for (const a of accounts.values()) {
        if (a.userId === user.id && a.refresh_error !== undefined) {
          marked = true
          break
        }
      }
      const found = { session: marked ? { ...copy(session), refreshError: true } : copy(session), user: copy(user) }
      if (sessionReads.length) {
        found.session.pluginData = {}
        for (const { id, read } of sessionReads) found.session.pluginData[id] = (await read(sessionToken, user.id)) ?? null
      }
      return found
    },

    async updateSession(changes) {
      const current = sessions.get(changes.sessionToken)
      if (!current) return null
      if (changes.expires !== undefined) requireDate('updateSession', 'expires', changes.expires)
      if (changes.userId !== undefined) requireUser('updateSession', changes.userId)
      if (changes.deviceBinding != null && (typeof changes.deviceBinding.id !== 'string' || typeof changes.deviceBinding.jwk !== 'object')) {
        throw new AdapterError('InvalidInput', 'updateSession: expected deviceBinding to be { id: string, jwk: object } or null')
      }
      const { expires, userId, deviceBinding } = given(changes)
      const next = copy({ ...current, ...given({ expires, userId, deviceBinding }) })
      sessions.set(next.sessionToken, next)
      return copy(next)
    },

    async deleteSession(sessionToken) {
      const session = sessions.get(sessionToken)
      if (!session) return null
      sessions.delete(sessionToken)
      return copy(session)
    },

    async replaceSessionToken(from, to) {
      const session = sessions.get(requireString('replaceSessionToken', 'from', from))
      if (!session) return null
      if (sessions.has(requireString('replaceSessionToken', 'to', to))) {
        throw new AdapterError('DuplicateSession', 'replaceSessionToken: expected a new session token, but this one is already in use')
      }
      // No await between the read and the writes: no other call runs in between.
      sessions.delete(from)
      const moved = { ...session, sessionToken: to }
      sessions.set(to, moved)
      return copy(moved)
    },

    async deleteSessionsByUserId(userId) {
      for (const [key, session] of sessions) if (session.userId === userId) sessions.delete(key)
    },

    async listSessionsByUserId(userId) {
      return [...sessions.values()].filter((session) => session.userId === userId).map(copy)
    },

    // ------------------------------------------------------------ verification tokens

    async createVerificationToken(verificationToken) {
      const identifier = requireString('createVerificationToken', 'identifier', verificationToken.identifier)
      const token = requireString('createVerificationToken', 'token', verificationToken.token)
      const expires = requireDate('createVerificationToken', 'expires', verificationToken.expires)
      const key = tokenKey(identifier, token)
      if (tokens.has(key)) {
        throw new AdapterError('DuplicateVerificationToken', 'createVerificationToken: expected a new token, but this identifier already has it')
      }
      const stored: VerificationToken = { identifier, token, expires: new Date(expires) }
      tokens.set(key, stored)
      return copy(stored)
    },

    async useVerificationToken({ identifier, token }) {
      const key = tokenKey(identifier, token)
      const stored = tokens.get(key)
      if (!stored) return null
      tokens.delete(key)
      return copy(stored)
    },

    async deleteVerificationTokens(filter) {
      const { identifier, expiredBefore, limit = Infinity } = requireTokenFilter('deleteVerificationTokens', filter)
      let deleted = 0
      for (const [key, stored] of tokens) {
        if (deleted >= limit) break
        if (identifier !== undefined && stored.identifier !== identifier) continue
        if (expiredBefore !== undefined && stored.expires.getTime() >= expiredBefore.getTime()) continue
        tokens.delete(key)
        deleted++
      }
      return deleted
    },

    // ------------------------------------------------------------ one-time email codes

    async createVerificationCode(record) {
      const { identifier, code, expires } = requireCode('createVerificationCode', record)
      codes.set(identifier, { code, expires: new Date(expires), attempts: 0 })
    },

    async useVerificationCode(attempt) {
      const { identifier, codes: candidates, maxAttempts } = requireAttempt('useVerificationCode', attempt)
      const stored = codes.get(identifier)
      if (stored) stored.attempts++
      return judgeAttempt(stored && { ...stored, expires: new Date(stored.expires) }, candidates, maxAttempts, () => codes.get(identifier) === stored && codes.delete(identifier))
    },

    async deleteVerificationCodes(filter) {
      const { expiredBefore, limit = Infinity } = requireExpiredFilter('deleteVerificationCodes', filter)
      let deleted = 0
      for (const [identifier, stored] of codes) {
        if (deleted >= limit) break
        if (stored.expires.getTime() >= expiredBefore.getTime()) continue
        codes.delete(identifier)
        deleted++
      }
      return deleted
    },

    // ------------------------------------------------------------ authenticators

    async createAuthenticator(authenticator) {
      const method = 'createAuthenticator'
      const credentialID = requireString(method, 'credentialID', authenticator.credentialID)
      requireString(method, 'credentialPublicKey', authenticator.credentialPublicKey)
      requireString(method, 'providerAccountId', authenticator.providerAccountId)
      requireString(method, 'credentialDeviceType', authenticator.credentialDeviceType)
      requireBoolean(method, 'credentialBackedUp', authenticator.credentialBackedUp)
      requireCounter(method, authenticator.counter)
      if (authenticator.transports !== undefined) requireStringOrNull(method, 'transports', authenticator.transports)
      if (authenticator.createdAt != null) requireDate(method, 'createdAt', authenticator.createdAt)
      if (authenticator.aaguid != null) requireString(method, 'aaguid', authenticator.aaguid)
      if (authenticator.name != null) requireString(method, 'name', authenticator.name)
      requireUser(method, authenticator.userId)
      if (authenticators.has(credentialID)) {
        throw new AdapterError('DuplicateAuthenticator', `${method}: expected a new credential, but credential "${credentialID}" is already registered`)
      }
      const stored = authenticatorRecord(authenticator)
      authenticators.set(credentialID, stored)
      return copy(stored)
    },

    async getAuthenticator(credentialID) {
      const authenticator = authenticators.get(credentialID)
      return authenticator ? copy(authenticator) : null
    },

    async listAuthenticatorsByUserId(userId) {
      return [...authenticators.values()].filter((a) => a.userId === userId).map(copy)
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const counter = requireCounter('updateAuthenticatorCounter', newCounter)
      const current = authenticators.get(credentialID)
      if (!current) {
        throw new AdapterError('UnknownAuthenticator', `updateAuthenticatorCounter: expected an existing credential, but "${credentialID}" is not registered`)
      }
      const next = { ...current, counter }
      authenticators.set(credentialID, next)
      return copy(next)
    },

    async updateAuthenticatorName(credentialID, name) {
      const value = requireStringOrNull('updateAuthenticatorName', 'name', name)
      const current = authenticators.get(credentialID)
      if (!current) return null
      const next = { ...current, name: value }
      authenticators.set(credentialID, next)
      return copy(next)
    },

    async deleteAuthenticator(credentialID) {
      const authenticator = authenticators.get(credentialID)
      if (!authenticator) return null
      authenticators.delete(credentialID)
      return copy(authenticator)
    },

    // ------------------------------------------------------------ second factors

    async createFactor(factor) {
      const method = 'createFactor'
      const stored = requireFactor(method, factor)
      requireUser(method, stored.userId)
      if (factors.has(stored.id)) throw new AdapterError('DuplicateFactor', `${method}: expected a new factor id, but "${stored.id}" is already in use`)
      factors.set(stored.id, copy(stored))
      return copy(stored)
    },

    async listFactorsByUserId(userId) {
      const mine = [...factors.values()].filter((f) => f.userId === userId)
      // Oldest first; the id breaks ties so the order never depends on insertion.
      mine.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      return mine.map(copy)
    },

    async confirmFactor(id, confirmedAt) {
      const at = requireDate('confirmFactor', 'confirmedAt', confirmedAt)
      const current = factors.get(id)
      if (!current) return null
      const next = { ...current, confirmedAt: new Date(at) }
      factors.set(id, next)
      return copy(next)
    },

    async useFactorStep(id, step) {
      const checked = requireStep('useFactorStep', 'step', step)
      const current = factors.get(id)
      // One synchronous compare-and-set: no other call runs between the read and the write.
      if (!current || (current.lastUsedStep !== null && current.lastUsedStep >= checked)) return false
      factors.set(id, { ...current, lastUsedStep: checked })
      return true
    },

    async deleteFactor(id) {
      const factor = factors.get(id)
      if (!factor) return null
      factors.delete(id)
      return copy(factor)
    },

    async replaceRecoveryCodes(userId, codes) {
      const checked = requireRecoveryCodes('replaceRecoveryCodes', codes)
      // [] only removes, as in SQL: no row to store, so no user to check.
      if (checked.length === 0) recoveryCodes.delete(requireString('replaceRecoveryCodes', 'userId', userId))
      else recoveryCodes.set(requireUser('replaceRecoveryCodes', userId).id, new Set(checked))
    },

    async useRecoveryCode(userId, code) {
      return recoveryCodes.get(userId)?.delete(code) ?? false
    },

    async countRecoveryCodes(userId) {
      return recoveryCodes.get(userId)?.size ?? 0
    },

    // ------------------------------------------------------------ passwords

    async getPasswordHash(userId) {
      return passwordHashes.get(userId) ?? null
    },

    async setPasswordHash(userId, hash) {
      const method = 'setPasswordHash'
      const checked = requirePasswordHash(method, hash)
      // As in SQL: null only deletes a row, so it asks for no user; storing one needs the user.
      if (checked === null) passwordHashes.delete(requireString(method, 'userId', userId))
      else passwordHashes.set(requireUser(method, userId).id, checked)
    },
  }
  joinPlugins()
  Object.defineProperty(adapter, inMemory, { value: true })
  return adapter
}
