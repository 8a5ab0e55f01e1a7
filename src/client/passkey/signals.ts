/**
 * The WebAuthn Signal API: keeps the browser's passkey manager in step with the server. Each call
 * is feature-detected and best effort: it never throws into the app, and a browser without it
 * simply keeps what it has. What each reveals: `signalUnknownCredential` only a credential id the
 * browser just used; the other two only the signed-in user's own handle, credential ids and names,
 * which the server gives to that user alone (GET /passkeys), so no signal names a user to a page
 * that is not signed in as them.
 */
import type { PasskeySignals } from '../../core/types.js'

type Signal = 'signalUnknownCredential' | 'signalAllAcceptedCredentials' | 'signalCurrentUserDetails'

async function send(method: Signal, options: Record<string, unknown>): Promise<void> {
  const api = globalThis.PublicKeyCredential as unknown as Record<Signal, ((o: unknown) => Promise<void>) | undefined> | undefined
  try {
    await api?.[method]?.(options)
  } catch {}
}

/** The server knows no such credential: the browser may stop offering it. */
export function signalUnknown(rpId: string, credentialId: string): Promise<void> {
  return send('signalUnknownCredential', { rpId, credentialId })
}

/** The credentials the server accepts, and the user's current names, for each RP ID. */
export async function signalAccepted(signals: PasskeySignals[] | undefined): Promise<void> {
  for (const { rpId, userId, allAcceptedCredentialIds, name, displayName } of signals ?? []) {
    await send('signalAllAcceptedCredentials', { rpId, userId, allAcceptedCredentialIds })
    await send('signalCurrentUserDetails', { rpId, userId, name, displayName })
  }
}
