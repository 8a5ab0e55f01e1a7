/** The cookies second factors set, apart from the code that sets them, so start-up holds only their names. */
import { cookieKey } from '../../kernel/cookies.js'

/** The pending sign-in, sealed (pending.ts). */
export const pendingCookie = cookieKey('mfa-pending')

/** A browser the user trusted to skip the second factor, sealed (trusted-device.ts). */
export const deviceCookie = cookieKey('mfa-device')
