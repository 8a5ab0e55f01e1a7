import type { CredentialInput, CredentialsConfig } from '../core/types.js'

/** Sign-in with fields the app checks itself in `authorize` (a password, a one-time code). */
export default function Credentials<C extends Record<string, CredentialInput>>(
  options: Partial<CredentialsConfig<C>> & Pick<CredentialsConfig<C>, 'authorize'>,
): CredentialsConfig<C> {
  return { id: 'credentials', name: 'Credentials', type: 'credentials', credentials: {} as C, ...options }
}
