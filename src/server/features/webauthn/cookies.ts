/** The cookies passkeys set, apart from the code that sets them, so start-up holds only their names. */
import { cookieKey } from '../../kernel/cookies.js'

/** The ceremonies' challenges, sealed, each bound to its purpose inside (challenge.ts). */
export const challengeCookie = cookieKey('challenge')

/** The marker a sign-in leaves for an automatic upgrade (upgrade.ts). */
export const upgradeCookie = cookieKey('upgrade')
