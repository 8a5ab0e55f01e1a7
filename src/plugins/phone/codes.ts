/**
 * The SMS codes, a kind of the kernel's one-time-secret service: 6 digits, 10 minutes, 5 wrong
 * entries burn one (counted atomically in the store, so several servers on one database share the
 * count). One code per number and provider: a new one replaces the old one and its count.
 */
import { digits, type CodeKind } from 'latchkey/server'

/** Lifetime of a code, in minutes. */
export const codeMinutes = 10

/** The provider's codes, keyed `sms.<provider id>:<E.164 number>`, so no other kind's code works here. */
export function codeKind(providerId: string): CodeKind {
  return {
    purpose: `sms.${providerId}`,
    length: 6,
    alphabet: digits,
    maxAge: codeMinutes * 60,
    maxAttempts: 5,
    needFor: 'phone sign-in codes',
    sentIn: 'the text message',
  }
}
