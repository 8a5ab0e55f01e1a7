/** Every feature a `Latchkey` instance is built from; a new way to sign in is one more line here. */
import type { LatchkeyPlugin } from '../kernel/plugin.js'
import { accounts } from './accounts/feature.js'
import { authjsMigration } from './authjs-migration/feature.js'
import { credentials } from './credentials/feature.js'
import { dbsc } from './dbsc/feature.js'
import { email } from './email/feature.js'
import { identity } from './identity/feature.js'
import { mfa } from './mfa/feature.js'
import { password } from './password/feature.js'
import { oauth } from './oauth/feature.js'
import { sessions } from './sessions/feature.js'
import { webauthn } from './webauthn/feature.js'

export const features: readonly LatchkeyPlugin[] = [oauth, email, credentials, webauthn, dbsc, sessions, accounts, identity, mfa, password, authjsMigration]
