import type { WebAuthnConfig } from '../core/types.js'
import WebAuthn from './webauthn.js'

/**
 * Passkeys: WebAuthn with a discoverable (resident) credential, so the user can sign in without
 * typing a name, from the browser's autofill. `residentKey` is always 'required' here; use the
 * `webauthn` provider for security keys that cannot store one.
 */
export default function Passkey(options: Partial<Omit<WebAuthnConfig, 'residentKey'>> = {}): WebAuthnConfig {
  return { ...WebAuthn({ id: 'passkey', name: 'Passkey', ...options }), residentKey: 'required' }
}
