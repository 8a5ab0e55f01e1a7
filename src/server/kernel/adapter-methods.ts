/** Which adapter methods a configuration needs, checked at start-up and again at call time. */
import type { Adapter } from '../../core/types.js'
import { MissingAdapterMethods } from '../../core/errors.js'
import type { AdapterMethod, ResolvedConfig } from './types.js'
import { methodOf } from './plugin.js'
import { codesInTokens, type CodeMethods } from './codes-in-tokens.js'

export type { AdapterMethod } from './types.js'
type Method = AdapterMethod

const userMethods: Method[] = ['createUser', 'getUser', 'getUserByEmail', 'getUserByAccount', 'updateUser', 'linkAccount']
const sessionMethods: Method[] = ['createSession', 'getSessionAndUser', 'updateSession', 'deleteSession']

/**
 * Methods the configuration needs: users, sessions, what each configured provider's sign-in
 * method asks, and what each installed plugin asks (its schema's methods among them).
 */
export function requiredAdapterMethods(config: ResolvedConfig): string[] {
  const need = new Set<string>()
  // A plugin's methods are needed with or without an adapter: without one they are all missing.
  for (const plugin of config.plugins) plugin.adapterMethods?.(config).forEach((m) => need.add(m))
  if (!config.adapter) return [...need]
  userMethods.forEach((m) => need.add(m))
  if (config.session.strategy === 'database') sessionMethods.forEach((m) => need.add(m))
  for (const p of config.providers.values()) methodOf(config, p)?.adapterMethods?.(config).forEach((m) => need.add(m))
  return [...need]
}

/** latchkey's code methods, and the contract's token methods that can keep codes in their place (codes-in-tokens.ts). */
export const codeMethods = ['createVerificationCode', 'useVerificationCode'] as const
const tokenMethods = ['createVerificationToken', 'useVerificationToken'] as const

const has = (adapter: object | undefined, methods: readonly string[]) => methods.every((m) => typeof (adapter as Record<string, unknown> | undefined)?.[m] === 'function')

/** Where one-time codes are kept: in the adapter's own code methods, in its verification tokens (Auth.js's adapters), or nowhere. */
export function codeKeeping(adapter: object | undefined): 'codes' | 'tokens' | null {
  if (has(adapter, codeMethods)) return 'codes'
  return has(adapter, tokenMethods) ? 'tokens' : null
}

/**
 * The named methods the adapter lacks, each of them a method a way in cannot do without: the code
 * methods count as there where verification tokens keep the codes.
 */
export function absentMethods(adapter: object | undefined, methods: readonly string[]): string[] {
  const tokensKeepCodes = codeKeeping(adapter) === 'tokens'
  return methods.filter((m) => !has(adapter, [m]) && !(tokensKeepCodes && (codeMethods as readonly string[]).includes(m)))
}

/** The code methods for codes of `maxAttempts` tries: the adapter's own, or over its verification tokens; throws `MissingAdapterMethods` where it has neither. */
export function useCodeMethods(config: ResolvedConfig, maxAttempts: number, needFor: string): CodeMethods {
  const adapter = config.adapter
  const keeping = codeKeeping(adapter)
  if (keeping === 'codes') return adapter as CodeMethods
  if (keeping === 'tokens') return codesInTokens(adapter as Parameters<typeof codesInTokens>[0], maxAttempts, config.now)
  throw new MissingAdapterMethods(adapter ? absentMethods(adapter, codeMethods) : [...codeMethods], needFor)
}

/**
 * The adapter, with the named methods checked; throws `MissingAdapterMethods` naming every one that
 * is absent. A plugin names its schema's methods with their type: `useAdapter<WaitlistStore>(...)`.
 */
export function useAdapter<M extends Method>(config: ResolvedConfig, methods: M[], needFor: string): Required<Pick<Adapter, M>>
export function useAdapter<T extends object>(config: ResolvedConfig, methods: Array<keyof T & string>, needFor: string): T
export function useAdapter(config: ResolvedConfig, methods: string[], needFor: string): object {
  const adapter = config.adapter as Record<string, unknown> | undefined
  // A loop, not a filter: this runs on every session read and should allocate nothing when all is well.
  for (const m of methods) {
    if (typeof adapter?.[m] !== 'function') throw new MissingAdapterMethods(adapter ? methods.filter((n) => typeof adapter[n] !== 'function') : methods, needFor)
  }
  return adapter as object
}
