/** What the passkey list calls an authenticator: its model's name from the AAGUID list, or a neutral one. */
import { aaguidNames } from './aaguid-names.js'

export const unknownAuthenticator = 'Passkey'

export function authenticatorName(aaguid: string | null | undefined): string {
  return (aaguid && aaguidNames[aaguid.toLowerCase()]) || unknownAuthenticator
}
