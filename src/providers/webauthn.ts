import type { WebAuthnConfig } from '../core/types.js'

/**
 * WebAuthn sign-in with any authenticator (security key, platform authenticator, passkey).
 * The relying party defaults to the request's host and origin; set `relyingParty` behind a proxy
 * or when the RP ID is a parent domain. Needs an adapter with the authenticator methods.
 */
export default function WebAuthn(options: Partial<WebAuthnConfig> = {}): WebAuthnConfig {
  return {
    id: 'webauthn',
    name: 'WebAuthn',
    type: 'webauthn',
    timeout: 5 * 60 * 1000,
    userVerification: 'preferred',
    residentKey: 'preferred',
    enableConditionalUI: true,
    ...options,
  }
}
