import type { Awaitable, CredentialsConfig } from '../core/types.js'

/** An email latchkey writes for the password flows; `sendEmail`, or the SMTP `server`, delivers it. */
export interface PasswordEmail {
  to: string
  /**
   * `verify-email`: confirm a new account's address (link and code). `account-exists`: someone
   * signed up with an address that has an account. `reset-password`: the link and code that set a
   * new password. `password-changed`: the owner is told their password changed.
   */
  kind: 'verify-email' | 'account-exists' | 'reset-password' | 'password-changed'
  subject: string
  text: string
  html: string
  url?: string
  code?: string
}

export interface PasswordOptions {
  id?: string
  name?: string
  /**
   * Delivers latchkey's emails (the app's mailer, an API, an outbox). Or pass `server` and `from`
   * to send them by SMTP; with neither, a configured Nodemailer provider's server and sender.
   */
  sendEmail?: (message: PasswordEmail) => Awaitable<void>
  /**
   * The SMTP server the emails go through (nodemailer, which the app installs): an SMTP URL
   * (`smtp://user:pass@host:587`) or nodemailer's SMTP transport options. With `from`; instead of
   * `sendEmail`. It adds no way to sign in, as the Nodemailer provider would (an email link).
   */
  server?: string | object
  /** The sender address of the emails sent through `server`: `"My app <no-reply@example.com>"`. */
  from?: string
  /** Fewest characters (Unicode code points) a password may have. Default 8, never less. */
  minLength?: number
  /** Most characters. Default 128, never less than 64. */
  maxLength?: number
  /**
   * The breached-password check through the k-anonymity range API (only the first five hex
   * digits of the password's SHA-1 leave the server). On by default; `false` turns it off.
   */
  breached?: false | { endpoint?: string; onError?: 'allow' | 'deny'; timeout?: number }
  /** Refuse sign-in (`EmailNotVerified`) until the address is confirmed by its link or code. Default true. */
  requireVerifiedEmail?: boolean
  /** A password change ends the user's other sessions. Default true. (A reset ends every session, always.) */
  endOtherSessions?: boolean
  /** How long an emailed link or code works, in seconds. Default 3600 for links; codes 10 minutes. */
  linkMaxAge?: number
}

export type PasswordConfig = CredentialsConfig<{ email: { label: string; type: string }; password: { label: string; type: string } }> & {
  kind: 'password'
  options: PasswordOptions
}

/**
 * Email-and-password accounts kept by latchkey: sign-up, sign-in, confirming the address,
 * forgotten and changed passwords (docs/passwords.md). The passwords are hashed with scrypt and
 * stored through the adapter's `getPasswordHash` and `setPasswordHash`. On the wire it is a
 * credentials provider: Auth.js clients sign in with it as with any other.
 */
export default function Password(options: PasswordOptions = {}): PasswordConfig {
  return {
    id: options.id ?? 'password',
    name: options.name ?? 'Password',
    type: 'credentials',
    kind: 'password',
    credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
    accountField: 'email',
    // The password feature signs in; a credentials sign-in never reaches this.
    authorize: () => null,
    options,
  }
}
