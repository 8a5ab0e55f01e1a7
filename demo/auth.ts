/**
 * latchkey for the demo: five ways in (Demo IdP over OpenID Connect, a credentials demo user,
 * email links, passkeys, accounts with a password) on the given adapter. Email lands in the outbox, and goes out over SMTP
 * (the nodemailer provider) when SMTP_URL is set.
 */
import type { Adapter } from '../src/core/types.js'
import Credentials from '../src/providers/credentials.js'
import Email from '../src/providers/email.js'
import Nodemailer from '../src/providers/nodemailer.js'
import OIDC from '../src/providers/oidc.js'
import Passkey from '../src/providers/passkey.js'
import Password from '../src/providers/password.js'
import { Latchkey } from '../src/server/index.js'
import type { Settings } from './config.js'
import type { Outbox } from './outbox.js'

/** The notice text for a new way to sign in. */
export function newWayNotice(provider: string, type: string): string {
  const what = type === 'webauthn' ? 'A passkey' : type === 'email' ? 'Email sign-in' : `Your ${provider} account`
  return `${what} was added as a way to sign in to your latchkey demo account. If this was not you, sign in, remove it under Passkeys or Linked accounts, and end your other sessions.`
}

export const demoAccount = { username: 'demo', password: 'demo', user: { id: 'demo-user', name: 'Demo User', email: 'demo@example.com' } }

export function createAuth(settings: Settings, adapter: Adapter, idpIssuer: string, outbox: Outbox) {
  const smtp = settings.smtpUrl ? Nodemailer({ server: settings.smtpUrl, from: settings.smtpFrom }) : undefined
  const created = new Set<string>()
  return Latchkey({
    secret: settings.secret,
    adapter,
    origin: settings.origin,
    session: { strategy: 'database', ...settings.session },
    // The emails (and later the built-in pages) carry the demo's name and colour.
    theme: { name: 'latchkey demo', brandColor: '#5b3cc4' },
    // Failed sign-ins come back to the app, which says what went wrong (`?error=`).
    pages: { error: '/' },
    // Second factors: a user who sets up an authenticator app (the Account card) is asked for it.
    mfa: { issuer: 'latchkey demo' },
    // Every new way into an account (an IdP account, a passkey, an email address) is told to its
    // owner, so a way someone else added does not go unseen.
    events: {
      // A new user's first way in is no news to them: users made by the sign-in under way are skipped.
      createUser: ({ user }) => void created.add(user.id!),
      linkAccount: ({ user, account }) => void (created.has(user.id!) || outbox.notify(user.email ?? '', newWayNotice(account.provider, account.type))),
      signIn: ({ user }) => void created.delete(user.id!),
    },
    providers: [
      OIDC({
        id: 'demo-idp',
        name: 'Demo IdP',
        issuer: idpIssuer,
        clientId: settings.idpClient.client_id,
        clientSecret: settings.idpClient.client_secret,
        // A refresh token, so /api/idp-profile can call the IdP after the access token expires.
        authorization: { params: { scope: 'openid profile email offline_access', prompt: 'consent' } },
        style: { brandColor: '#5b3cc4' },
      }),
      Credentials({
        name: 'Demo account',
        credentials: { username: { label: 'Username', placeholder: 'demo' }, password: { label: 'Password', type: 'password', placeholder: 'demo' } },
        authorize: ({ username, password }) => (username === demoAccount.username && password === demoAccount.password ? demoAccount.user : null),
      }),
      Email({
        async sendVerificationRequest(params) {
          outbox.add(params, !!smtp)
          await smtp?.sendVerificationRequest(params)
        },
      }),
      Passkey({ relyingParty: { name: 'latchkey demo' } }),
      // Accounts with a password: their emails (confirm, reset, "your password changed") land in the outbox.
      // Without internet the breached-password check lets a password through (and logs a warning).
      Password({
        sendEmail: (message) => outbox.letter(message),
        breached: settings.breachedPasswords === 'off' ? false : { timeout: 1500, ...(settings.breachedPasswords && { endpoint: settings.breachedPasswords }) },
      }),
    ],
  })
}
