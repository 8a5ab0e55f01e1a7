/** Which adapter methods a configuration needs, checked at start-up and again at call time. */
import type { Adapter } from '../core/types.js'
import { MissingAdapterMethods } from '../core/errors.js'
import type { ResolvedConfig } from './config.js'

type Method = keyof Adapter

const userMethods: Method[] = ['createUser', 'getUser', 'getUserByEmail', 'getUserByAccount', 'updateUser', 'linkAccount']
const sessionMethods: Method[] = ['createSession', 'getSessionAndUser', 'updateSession', 'deleteSession']

/** Methods each feature needs; only features the configuration uses count. */
export function requiredAdapterMethods(config: ResolvedConfig): Method[] {
  if (!config.adapter) return []
  const need = new Set<Method>(userMethods)
  if (config.session.strategy === 'database') sessionMethods.forEach((m) => need.add(m))
  for (const p of config.providers.values()) {
    if (p.type === 'email') ['createVerificationToken', 'useVerificationToken'].forEach((m) => need.add(m as Method))
    if (p.type === 'webauthn') {
      // The verification-token pair keeps each challenge single-use across servers.
      ;(['createAuthenticator', 'getAuthenticator', 'listAuthenticatorsByUserId', 'updateAuthenticatorCounter', 'getAccount', 'createVerificationToken', 'useVerificationToken'] as Method[]).forEach((m) => need.add(m))
      // The first proof of an address removes the passkeys and sessions made before it (first-proof.ts).
      need.add('deleteAuthenticator')
      if (config.session.strategy === 'database') need.add('deleteSessionsByUserId')
    }
  }
  return [...need]
}

/** The adapter, with the named methods checked; throws `MissingAdapterMethods` naming every one that is absent. */
export function useAdapter<M extends Method>(config: ResolvedConfig, methods: M[], needFor: string): Required<Pick<Adapter, M>> {
  const adapter = config.adapter as Adapter | undefined
  // A loop, not a filter: this runs on every session read and should allocate nothing when all is well.
  for (const m of methods) {
    if (typeof adapter?.[m] !== 'function') throw new MissingAdapterMethods(adapter ? methods.filter((n) => typeof adapter[n] !== 'function') : methods, needFor)
  }
  return adapter as Required<Pick<Adapter, M>>
}
