/** Conversions between the stored authenticator (base64url strings) and what the WebAuthn library and the app see. */
import type { AdapterAuthenticator, PasskeyInfo } from '../../../core/types.js'
import type { WebAuthnCredential } from '@simplewebauthn/server'
import { fromBase64Url } from '../../../core/encoding.js'
import { authenticatorName } from './authenticator-name.js'

export function transportsOf(authenticator: AdapterAuthenticator): string[] | undefined {
  return authenticator.transports ? authenticator.transports.split(',').filter(Boolean) : undefined
}

/** For `verifyAuthenticationResponse`. The counter is checked by `checkCounter`, after the signature. */
export function toCredential(authenticator: AdapterAuthenticator): WebAuthnCredential {
  return {
    id: authenticator.credentialID,
    publicKey: fromBase64Url(authenticator.credentialPublicKey) as WebAuthnCredential['publicKey'],
    counter: 0,
    transports: transportsOf(authenticator),
  }
}

export function toPasskeyInfo(authenticator: AdapterAuthenticator): PasskeyInfo {
  return {
    id: authenticator.credentialID,
    deviceType: authenticator.credentialDeviceType,
    backedUp: authenticator.credentialBackedUp,
    transports: transportsOf(authenticator) ?? [],
    counter: authenticator.counter,
    createdAt: authenticator.createdAt ? authenticator.createdAt.toISOString() : null,
    name: authenticator.name ?? null,
    authenticator: authenticatorName(authenticator.aaguid),
    aaguid: authenticator.aaguid ?? null,
  }
}
