/** A sign-in that ends with a code sent to the user (email, SMS): the code signs this browser in, or its refusal is thrown. */
import { AuthClientError } from '../errors.js'
import type { AuthClient, SignInResult } from '../auth-client.js'
import type { AppProvider } from '../types.js'

const codeMessages: Record<string, string> = {
  InvalidCode: 'The code is not right',
  CodeExpired: 'The code has expired; ask for a new one',
  TooManyAttempts: 'Too many wrong codes; ask for a new one',
}

/** The provider `id`, else the first the server lists that `fits`. */
export async function providerId(client: AuthClient, id: string | undefined, fits: (p: AppProvider) => boolean, what: string): Promise<string> {
  const found = id ?? Object.values(await client.getProviders()).find(fits)?.id
  if (!found) throw new AuthClientError('UnknownProvider', `No ${what} provider at ${client.basePath}/providers`)
  return found
}

export async function signInWithCode(client: AuthClient, id: string, fields: Record<string, string>, callbackUrl = location.href): Promise<SignInResult> {
  const result = await client.signIn(id, { ...fields, callbackUrl, redirect: false })
  if (result.error) throw new AuthClientError(result.error, codeMessages[result.error] ?? `Refused: ${result.error}`)
  return result
}
