/**
 * The signature counter rule (WebAuthn §6.1.1): an authenticator that counts must report a
 * larger number each time. A number that does not move forward means two copies of the key exist:
 * the authenticator may have been cloned, so the sign-in is refused. Authenticators that do not
 * count (passkeys synced between devices) report 0 every time, which is allowed.
 */
import { WebAuthnRefusal } from './errors.js'

export function checkCounter(stored: number, reported: number): void {
  if ((reported > 0 || stored > 0) && reported <= stored) {
    throw new WebAuthnRefusal(
      'counter',
      `Expected the passkey's signature counter to exceed ${stored}, got ${reported}: the authenticator may have been cloned`,
      { status: 401 },
    )
  }
}
