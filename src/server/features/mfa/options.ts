/** `AuthConfig.mfa`, resolved, and what it needs of the adapter. */
import type { MfaOptions } from '../../../core/config.js'
import { factorMethods } from '../../../adapters/factors.js'
import { configurationError } from '../../../core/errors.js'
import type { ResolvedConfig } from '../../kernel/types.js'
import { absentMethods } from '../../kernel/adapter-methods.js'

export type ResolvedMfa = Required<Omit<MfaOptions, 'requireFor'>> & Pick<MfaOptions, 'requireFor'>

/** The adapter methods second factors need: factors, recovery codes, the pending sign-in's one-time record and its tries. */
export const mfaMethods = [...factorMethods, 'getUser', 'createVerificationToken', 'useVerificationToken', 'createVerificationCode', 'useVerificationCode'] as const

export function resolveMfa(option: MfaOptions | boolean | undefined, resolved: ResolvedConfig, appName: string | undefined): ResolvedMfa | null {
  if (!option) return null
  const given = option === true ? {} : option
  const adapter = resolved.adapter
  // The code methods are not among them where verification tokens keep the codes.
  const missing = absentMethods(adapter, mfaMethods)
  if (missing.length) {
    throw configurationError(
      `latchkey: mfa needs ${adapter ? 'the adapter methods ' + missing.join(', ') : 'an adapter (second factors are stored)'}; ` +
        `latchkey's memory and SQL adapters have them (docs/data.md#second-factors)`,
    )
  }
  const recoveryCodes = given.recoveryCodes ?? 10
  const pendingMaxAge = given.pendingMaxAge ?? 300
  if (!Number.isInteger(recoveryCodes) || recoveryCodes < 1 || recoveryCodes > 50) throw configurationError(`latchkey: mfa.recoveryCodes must be a whole number from 1 to 50, got ${recoveryCodes}`)
  if (!(pendingMaxAge >= 30 && pendingMaxAge <= 3600)) throw configurationError(`latchkey: mfa.pendingMaxAge must be from 30 to 3600 seconds, got ${pendingMaxAge}`)
  const trustDevices = given.trustDevices ?? 30 * 86400
  if (trustDevices !== false && !(Number.isInteger(trustDevices) && trustDevices >= 3600 && trustDevices <= 400 * 86400)) {
    throw configurationError(`latchkey: mfa.trustDevices must be false or a whole number of seconds from 3600 to 34560000 (400 days, the longest a browser keeps a cookie), got ${trustDevices}`)
  }
  return {
    issuer: given.issuer ?? appName ?? 'latchkey',
    recoveryCodes,
    pendingMaxAge,
    required: given.required ?? false,
    requireFor: given.requireFor,
    trustDevices,
    freshSecondFactor: given.freshSecondFactor ?? false,
  }
}
