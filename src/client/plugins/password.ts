/** `password()`: email-and-password accounts (the server's `Password()` provider, docs/passwords.md). */
import type { ClientPlugin } from '../plugin.js'

/** `client.password`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface PasswordClient {
  signUp(account: { email: string; password: string; name?: string }): Promise<void>
  verify(proof: { email: string; code: string }): Promise<void>
  resend(email: string): Promise<void>
  forgot(email: string): Promise<void>
  reset(change: { email: string; code: string; password: string }): Promise<void>
  status(): Promise<{ hasPassword: boolean }>
  set(change: { password: string; currentPassword?: string }): Promise<{ hasPassword: boolean }>
}

/** The plugin that adds `client.password`. */
export const password = (): ClientPlugin<'password', PasswordClient> => ({
  name: 'password',
  // Sign-in, sign-up and reset forms for a `Password()` provider (the element's, loaded where one is).
  waysIn: [{ knows: (p) => !!p.password, renderer: 'password' }],
  setup({ get, send, settle }) {
    /** POST /password and its steps: a refusal is thrown with the server's code. */
    const post = <T = { ok: true }>(path: string, fields: Record<string, string>) => send<T>(`/password${path}`, fields)
    return {
      signUp: async ({ email, password, name }) => void (await post('/sign-up', { email, password, ...(name && { name }) })),
      verify: async ({ email, code }) => void (await post('/verify', { email, code })),
      resend: async (email) => void (await post('/verify-again', { email })),
      forgot: async (email) => void (await post('/forgot', { email })),
      // Every session of the user ends: this browser's too, where it was signed in as them.
      reset: async ({ email, code, password }) => settle('/password/reset', (await post('/reset', { email, code, password })).response),
      status: () => get<{ hasPassword: boolean }>('/password'),
      async set({ password, currentPassword }) {
        const { data, response } = await post<{ hasPassword: boolean }>('', { action: 'set', password, ...(currentPassword !== undefined && { currentPassword }) })
        await settle('/password', response)
        return data
      },
    }
  },
})

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.password`. Signing in stays `signIn('password', { email, password, redirect: false })`:
     * refused with `CredentialsSignin`, or `EmailNotVerified` until the address is confirmed. `signUp`
     * answers the same whether or not the address has an account (its owner is emailed instead);
     * `verify` takes the code from the confirmation email and `resend` sends it again; `forgot` emails
     * a code that `reset` takes with the new password (every session of the user ends). Signed in,
     * `status()` says whether the user has a password and `set()` sets or changes it (a recent
     * sign-in, else `SessionNotFresh`; `currentPassword` where there is one), ending the other
     * sessions. Refusals are an `AuthClientError` with the server's code: `PasswordTooShort`,
     * `PasswordTooLong`, `PasswordBreached`, `InvalidCode`, `CodeExpired`, `TooManyAttempts`,
     * `RateLimited`, `CredentialsSignin` (a wrong `currentPassword`).
     */
    readonly password: PasswordClient
  }
}
