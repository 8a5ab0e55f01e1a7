/**
 * The app's configuration: `AuthConfig` and what it holds (session options, callbacks, events,
 * pages, the logger). The providers and the adapter it names are the contract's (contract.ts).
 */
import type { AdapterAccount, AdapterSession, AdapterUser, Adapter, AppProviders, Awaitable, PluginRef, Profile, Theme, User } from './contract.js'
import type { RateLimitOptions } from './rate-limit.js'
import type { PasskeyInfo, Session } from './wire.js'
import type { Language, PageMessages } from '../locales/index.js'

export interface SessionOptions {
  /** `database` when an adapter is set, else `jwt`. */
  strategy: 'jwt' | 'database'
  /** Seconds from an extension to expiry. Default 30 days. */
  maxAge: number
  /** Seconds after which an access extends the session. Default 24 hours. 0 extends on every access. */
  updateAge: number
  /** Database strategy: makes a new session token. Default 32 random bytes, base64url. */
  generateSessionToken?: () => string
  /**
   * Seconds after a sign-in during which the session counts as fresh: adding a passkey and
   * ending sessions need a fresh one, and `requireFreshSession` defaults to it. Default 1 hour.
   */
  freshAge?: number
  /**
   * Device-bound sessions (W3C DBSC), database strategy only: the browser holds a short-lived
   * cookie that only the device's key can renew. `true`, or `{ cookieMaxAge }` in seconds
   * (default 600). Off by default.
   */
  deviceBound?:
    | boolean
    | {
        cookieMaxAge?: number
        /**
         * Users whose sessions must be bound: an unbound session of theirs is ended once a minute
         * has passed since its sign-in (time enough to register), so a browser that binds nothing
         * cannot keep one. Default: none, every unbound session works as without binding.
         */
        requireFor?: (user: AdapterUser) => boolean
      }
}

/** The JWT strategy's token payload. */
export interface JWT {
  sub?: string
  name?: string | null
  email?: string | null
  picture?: string | null
  [claim: string]: unknown
}

/** `S`: the session the `session` callback answers; the app's own routes get that type. */
export interface Callbacks<S extends Session = Session> {
  /** Return false (or a URL to redirect to) to refuse a sign-in. */
  signIn?: (params: {
    user: User | AdapterUser
    account: AdapterAccount | null
    profile?: Profile
    email?: { verificationRequest?: boolean }
    credentials?: Record<string, unknown>
  }) => Awaitable<boolean | string>
  /** Default: relative URLs and URLs of the same origin only; anything else becomes `baseUrl`. */
  redirect?: (params: { url: string; baseUrl: string }) => Awaitable<string>
  /** Shapes the session JSON. */
  session?: (params: {
    session: Session
    user?: AdapterUser
    token?: JWT
    trigger?: 'update'
    newSession?: unknown
  }) => Awaitable<S>
  /** Shapes the JWT strategy's token. */
  jwt?: (params: {
    token: JWT
    user?: User | AdapterUser
    account?: AdapterAccount | null
    profile?: Profile
    trigger?: 'signIn' | 'signUp' | 'update'
    isNewUser?: boolean
    session?: unknown
  }) => Awaitable<JWT | null>
}

export interface EventCallbacks {
  signIn?: (message: { user: User; account: AdapterAccount | null; profile?: Profile; isNewUser?: boolean }) => Awaitable<void>
  signOut?: (message: { session?: AdapterSession | null; token?: JWT | null }) => Awaitable<void>
  createUser?: (message: { user: AdapterUser }) => Awaitable<void>
  linkAccount?: (message: { user: AdapterUser | User; account: AdapterAccount; profile?: Profile }) => Awaitable<void>
  session?: (message: { session: Session; token?: JWT }) => Awaitable<void>
  /**
   * latchkey's addition: the first proof of the user's address (an email link, or an OAuth sign-in
   * linked by email) removed the passkeys registered before it, which nobody had proven to be the owner's.
   */
  passkeysRemoved?: (message: { user: AdapterUser; passkeys: PasskeyInfo[] }) => Awaitable<void>
  /** latchkey's addition: the user confirmed a new second factor (an authenticator app). */
  mfaEnrolled?: (message: { user: AdapterUser; factor: { id: string; type: 'totp'; label: string | null } }) => Awaitable<void>
  /** latchkey's addition: the user removed a second factor. */
  mfaRemoved?: (message: { user: AdapterUser; factor: { id: string; type: 'totp'; label: string | null } }) => Awaitable<void>
  /** latchkey's addition: a recovery code was spent on a sign-in; `left` say how many remain. */
  recoveryCodeUsed?: (message: { user: AdapterUser; left: number }) => Awaitable<void>
  /** A signed-in user set or changed their password (`Password()` provider). */
  passwordChanged?: (message: { user: AdapterUser }) => Awaitable<void>
  /** A password was reset through its email (every session of the user ended). */
  passwordReset?: (message: { user: AdapterUser }) => Awaitable<void>
}

/** latchkey's addition: second factors (docs/mfa.md). */
export interface MfaOptions {
  /** The name authenticator apps show beside the account. Default: `theme.name`, else the host of `origin` (or AUTH_URL). */
  issuer?: string
  /** Recovery codes made at a time. Default 10. */
  recoveryCodes?: number
  /** How long a sign-in waits for its second factor, in seconds. Default 300. */
  pendingMaxAge?: number
  /** Every user must have a second factor: one without is asked to add one at sign-in, before any session. */
  required?: boolean
  /** Per user, as `required`: true for the users who must have a second factor (admins, say). */
  requireFor?: (user: AdapterUser) => Awaitable<boolean>
  /**
   * "Don't ask again on this device": how long, in seconds, a browser the user chose to trust at
   * the second step skips it. Default 30 days; `false` never offers it. Adding or removing a factor
   * voids every trusted device; the user lists and forgets them at /mfa.
   */
  trustDevices?: number | false
  /**
   * A sign-in that renews the session this browser already holds (to make it fresh, before adding
   * or removing a way in) asks for the second factor too, trusted device or not. Default false:
   * the held session had its second factor.
   */
  freshSecondFactor?: boolean
}

export interface Logger {
  error(error: Error): void
  warn(code: string): void
  debug(message: string, metadata?: unknown): void
}

/**
 * latchkey's addition: reading the sessions Auth.js (next-auth 4, next-auth 5, `@auth/core`) made,
 * so a move to latchkey signs nobody out (docs/guides/migrating-from-authjs.md).
 */
export interface AuthjsMigrationOptions {
  /**
   * Auth.js's secret (its AUTH_SECRET or NEXTAUTH_SECRET), or several as Auth.js rotated them:
   * needed to read its JWT cookies (the `jwt` session strategy). Not needed for database sessions.
   */
  secret?: string | string[]
  /**
   * Until when old sessions are read (a Date, or an ISO 8601 instant); after it none is. Required:
   * set it to the switch-over day plus Auth.js's session lifetime (30 days by default).
   */
  until: Date | string
}

export interface AuthConfig<S extends Session = Session> {
  providers: AppProviders
  /**
   * Plugins beyond the built-in ones (latchkey/server's `LatchkeyPlugin`): their routes, steps,
   * cookies, error codes and rate-limited actions join the instance's. A provider that names its
   * plugin (`plugin`) brings it without a line here.
   */
  plugins?: PluginRef[]
  /** Signs and encrypts cookies and hashes email tokens. An array rotates: the first signs, all are tried. */
  secret?: string | string[]
  adapter?: Adapter
  session?: Partial<SessionOptions>
  /** Where the routes live. Default `/auth`. */
  basePath?: string
  callbacks?: Callbacks<S>
  events?: EventCallbacks
  /** Custom pages: where to send the browser instead of the built-in ones. */
  pages?: { signIn?: string; signOut?: string; error?: string; verifyRequest?: string }
  /**
   * The languages of the built-in pages, best default first: a page speaks the visitor's
   * `Accept-Language` where it is one of these, else the first. Default: every shipped language
   * (English first), then `addedLanguages`.
   */
  languages?: string[]
  /** Words of the built-in pages to change, per shipped language: `{ fr: { signIn: 'Connexion' } }`. */
  messages?: { [tag in Language]?: Partial<PageMessages> }
  /** Languages for the built-in pages beyond the shipped ones, by tag, each with every message of src/locales/en/pages.ts. */
  addedLanguages?: Record<string, PageMessages>
  /**
   * The app's name, logo and colours, for the emails latchkey writes and its built-in pages
   * (Auth.js's `theme`, with latchkey's `name`). Default: the origin's host as the name.
   */
  theme?: Theme
  /** Redirect proxy for every OAuth provider (adds `state` to their checks). */
  redirectProxyUrl?: string
  /** Origins allowed to call the routes cross-origin with credentials. */
  trustedOrigins?: string[]
  /**
   * The app's public origin (for example `https://example.com`), or several (the request's Host
   * picks one; the first is the default). Links in emails, OAuth redirect URIs, passkey relying
   * parties and redirects are built on it. Default: the `AUTH_URL` environment variable's origin;
   * without either, only loopback hosts are answered (development) and a production start
   * (`NODE_ENV=production`) is refused unless `trustHost` is set. A request whose Host is neither
   * a configured origin's nor a loopback one is refused with 400.
   */
  origin?: string | string[]
  /**
   * Take the request's Host (and X-Forwarded-Host / X-Forwarded-Proto) as the public origin when
   * no `origin` is configured: only for platforms that set those headers themselves. Default:
   * the `AUTH_TRUST_HOST` environment variable (`true` or `1`), else false.
   */
  trustHost?: boolean
  /** Force `Secure` cookies and their prefixes; default: when the request is https. */
  useSecureCookies?: boolean
  /**
   * Limits on sign-in attempts, emails sent and passkey option requests, per account and per
   * client address (answered 429 with Retry-After). On by default; `false` turns them off.
   */
  rateLimit?: RateLimitOptions | false
  /** Largest request body accepted, in bytes. Default 64 KiB. */
  maxBodySize?: number
  logger?: Partial<Logger>
  /** The clock, in milliseconds; tests move it. Default `Date.now`. */
  now?: () => number
  /**
   * `auth.getAccessToken`: a provider's access token that expires within `skew` seconds
   * (default 60) is refreshed before it is handed out.
   */
  accessTokens?: { skew?: number }
  /**
   * latchkey's addition: second factors. On (an object, or true), a user who enrolled an
   * authenticator app signs in with it after the first factor, and manages it at /mfa.
   */
  mfa?: MfaOptions | boolean
  /**
   * latchkey's addition, off by default: sessions another library made that latchkey reads until a
   * date, each moved to latchkey's own form on its first read (cookie and record), the old cookies
   * cleared. `authjs`: next-auth 4 and 5 and `@auth/core` JWT cookies and database sessions.
   */
  migrateFrom?: { authjs?: AuthjsMigrationOptions }
}
