/**
 * The contract of shared/seed/contract.md: provider configurations, the adapter and its records,
 * spelled as the contract spells them, with latchkey's additions marked. No runtime code lives
 * here except `isDate`. What the server answers is in wire.ts; the app's configuration in config.ts.
 */
import type { emailProviderIds, oauthProviderIds } from './provider-ids.js'

/** A value or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>

// ---------------------------------------------------------------- 2.1 enumerations

/** The WebAuthn kind of provider; `webauthn` and `passkey` are its built-in ids. */
export type WebAuthnProviderType = 'webauthn' | 'passkey'

export type ProviderType = 'oidc' | 'oauth' | 'email' | 'credentials' | WebAuthnProviderType

export type RedirectableProviderType = 'email' | 'credentials'

/** Ids of the built-in third-party providers (OAuth 2, OpenID Connect and email services). */
export type OAuthProviderType = (typeof oauthProviderIds)[number] | (typeof emailProviderIds)[number]

export type BuiltInProviderType = RedirectableProviderType | OAuthProviderType | WebAuthnProviderType

export type OAuthEndpointType = 'authorization' | 'token' | 'userinfo'

/** The subset of `ProviderType` allowed on accounts. */
export type AdapterAccountType = Extract<ProviderType, 'oauth' | 'oidc' | 'email' | 'webauthn'>

/** A provider id: a built-in one, with completion, or any string of the app's own. */
export type ProviderId = BuiltInProviderType | (string & {})

// ---------------------------------------------------------------- 2.2 common options

export interface CommonProviderOptions {
  /** Uniquely identifies the provider in `AuthConfig.providers`; also part of the URL. */
  id: string
  /** Shown on the default sign-in button: "Sign in with {name}". */
  name: string
  type: ProviderType
  /**
   * latchkey's addition: the sign-in method that runs the provider where it shares its wire type
   * with another (`Password()`: type `credentials`, kind `password`). Default: the type.
   */
  kind?: string
  /** latchkey's addition: the plugin that runs this provider, installed with it (`LatchkeyPlugin` in latchkey/server). */
  plugin?: PluginRef
}

/** A plugin as the configuration names it (latchkey/server's `LatchkeyPlugin`): only its id is read here. */
export interface PluginRef {
  readonly id: string
}

/** A provider a plugin brings (phone numbers): a type of its own, run by the plugin it names. */
export interface PluginProviderConfig extends Omit<CommonProviderOptions, 'type' | 'plugin'> {
  type: string
  plugin: PluginRef
  [option: string]: unknown
}

// ---------------------------------------------------------------- records the contract leaves open

/** Tokens returned by a token endpoint, as the provider sent them. */
export interface TokenSet {
  access_token?: string
  token_type?: string
  id_token?: string
  refresh_token?: string
  scope?: string
  expires_in?: number
  /** Absolute expiry in seconds since the epoch. */
  expires_at?: number
  session_state?: string
  authorization_details?: AuthorizationDetails[]
  [key: string]: unknown
}

/** RFC 9396 authorization details. */
export interface AuthorizationDetails {
  type: string
  locations?: string[]
  actions?: string[]
  datatypes?: string[]
  privileges?: string[]
  identifier?: string
  [key: string]: unknown
}

/** The profile an identity provider returns, in its own shape. */
export interface Profile {
  sub?: string | null
  name?: string | null
  email?: string | null
  image?: string | null
  [claim: string]: unknown
}

/** The user as the app and callbacks see it. */
export interface User {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/** Client metadata passed to the OAuth client (oauth4webapi's `Client`). */
export interface Client {
  client_id: string
  client_secret?: string
  token_endpoint_auth_method?:
    | 'client_secret_basic'
    | 'client_secret_post'
    | 'client_secret_jwt'
    | 'private_key_jwt'
    | 'none'
  id_token_signed_response_alg?: string
  authorization_signed_response_alg?: string
  userinfo_signed_response_alg?: string
  default_max_age?: number
  require_auth_time?: boolean
  [metadata: string]: unknown
}

/** Query parameters of an authorization request. */
export interface AuthorizationParameters {
  scope?: string
  response_type?: string
  response_mode?: string
  prompt?: string
  max_age?: number
  login_hint?: string
  [param: string]: string | number | boolean | undefined
}

/** Extra query parameters for the token or userinfo endpoint. */
export type UrlParams = Record<string, unknown>

// ---------------------------------------------------------------- 2.5 callbacks and handlers

/** Returns the subset of the token set to store on the account, or nothing for the default. */
export type AccountCallback = (tokens: TokenSet) => TokenSet | undefined | void

/** Maps the provider's profile (and tokens) to the user stored in the data store. */
export type ProfileCallback<P> = (profile: P, tokens: TokenSet) => Awaitable<User>

/** An endpoint given as an object: its URL, extra parameters, and optionally a custom request. */
export interface EndpointHandler<P extends UrlParams | AuthorizationParameters, C = unknown, R = unknown> {
  url?: string
  params?: P
  request?: (context: C) => Awaitable<R>
}

export type AuthorizationEndpointHandler = EndpointHandler<AuthorizationParameters>

export type TokenEndpointHandler = EndpointHandler<
  UrlParams,
  { checks: OAuthChecks; params: CallbackParamsType; provider: OAuthConfig<any>; redirectUri: string },
  { tokens: TokenSet }
> & {
  /**
   * The key that signs the client assertion under `client.token_endpoint_auth_method:
   * 'private_key_jwt'`: a private `CryptoKey`, or a private JWK (its `kid` goes into the
   * assertion's header; its `alg`, else RS256, EC P-256 → ES256 or Ed25519 → EdDSA, signs).
   */
  clientPrivateKey?: WebCryptoKey | PrivateJWK
}

/**
 * A Web Crypto `CryptoKey` (from `crypto.subtle`), by the members it has in every runtime: spelled
 * here so the server's types compile with the ES library alone, without the DOM's.
 */
export interface WebCryptoKey {
  readonly type: string
  readonly algorithm: { readonly name: string }
  readonly extractable: boolean
  readonly usages: readonly string[]
}

/** A private key as a JSON Web Key: `d` present. */
export interface PrivateJWK {
  kty: string
  d: string
  kid?: string
  alg?: string
  crv?: string
  [member: string]: unknown
}

export type UserinfoEndpointHandler = EndpointHandler<
  UrlParams,
  { tokens: TokenSet; provider: OAuthConfig<any> },
  Profile
>

/** Parameters the provider sent back to the callback. */
export interface CallbackParamsType {
  code?: string
  state?: string
  iss?: string
  error?: string
  error_description?: string
  [param: string]: string | undefined
}

/** Checks values bound to an OAuth 2 callback. */
export interface OAuthCallbackChecks {
  response_type?: string
  state?: string
  code_verifier?: string
}

/** Checks values bound to an OpenID Connect callback. */
export interface OpenIDCallbackChecks extends OAuthCallbackChecks {
  max_age?: number
  nonce?: string
}

export type OAuthChecks = OpenIDCallbackChecks | OAuthCallbackChecks

// ---------------------------------------------------------------- 2.3 / 2.4 OAuth and OIDC

/** Sign-in button styling. */
export interface OAuthProviderButtonStyles {
  brandColor?: string
  logo?: string
  /** @deprecated use `brandColor` */
  bg?: string
  /** @deprecated */
  text?: string
}

export interface OAuth2Config<Profile> extends CommonProviderOptions {
  id: string
  name: string
  type: 'oauth'
  issuer?: string
  /** Endpoint of the provider's signing keys (a URL string), used to verify ID tokens. */
  jwks_endpoint: any
  authorization?: string | AuthorizationEndpointHandler
  token?: string | TokenEndpointHandler
  userinfo?: string | UserinfoEndpointHandler
  /** Discovery URL; an OpenID Connect provider can set it instead of the three endpoints. */
  wellKnown?: string
  clientId?: string
  clientSecret?: string
  /** CSRF protection on the callback. Default `['pkce']`. */
  checks?: Array<'none' | 'state' | 'pkce'>
  client?: Partial<Client>
  /** Default returns `id`, `email`, `name`, `image`. */
  profile?: ProfileCallback<Profile>
  /** Default returns `access_token`, `id_token`, `refresh_token`, `expires_at`, `scope`, `token_type`, `session_state`. */
  account?: AccountCallback
  /** Link automatically to an existing user with the same email. Unsafe unless the provider verifies emails. */
  allowDangerousEmailAccountLinking?: boolean
  redirectProxyUrl?: string
  style?: OAuthProviderButtonStyles
  /** Options given to the built-in provider function, kept for reference. */
  options?: OAuthUserConfig<Profile>
}

export interface OIDCConfig<Profile> extends Omit<OAuth2Config<Profile>, 'type' | 'checks' | 'options'> {
  type: 'oidc'
  /** CSRF protection on the callback. latchkey's default: `['pkce', 'nonce']`. */
  checks?: Array<'none' | 'state' | 'nonce' | 'pkce'>
  /** When false, user data comes from the userinfo endpoint; an ID token is still required. Default true. */
  idToken?: boolean
  options?: OIDCUserConfig<Profile>
}

export type OAuthConfig<Profile> = OIDCConfig<Profile> | OAuth2Config<Profile>

export type OAuthUserConfig<Profile> = Omit<Partial<OAuth2Config<Profile>>, 'options' | 'type'>

export type OIDCUserConfig<Profile> = Omit<Partial<OIDCConfig<Profile>>, 'options' | 'type'>

// ---------------------------------------------------------------- email, credentials, WebAuthn

/**
 * The app's brand, as Auth.js's `theme` (its four fields keep their names) with latchkey's `name`:
 * the emails latchkey writes show it, and the built-in pages take it too. Checked at start-up.
 */
export interface Theme {
  /**
   * latchkey's addition: the app's name, the header and subject of its emails and the title of
   * its pages. Default: the host of the origin (`app.example.com`).
   */
  name?: string
  /** The pages' colour scheme; the emails are always light. Default `auto`. */
  colorScheme?: 'auto' | 'dark' | 'light'
  /** An https URL of the logo (http only on localhost), or a `data:image/...;base64,` URL. */
  logo?: string
  /** The primary colour, of buttons and accents: `#rgb` or `#rrggbb`. Default `#346df1`. */
  brandColor?: string
  /** The colour of a button's text: `#rgb` or `#rrggbb`. Default: white or near-black, whichever reads better on `brandColor`. */
  buttonText?: string
}

/** What an email provider's `sendVerificationRequest` receives. */
export interface SendVerificationRequestParams {
  /** The normalised email address. */
  identifier: string
  /** The link that signs the user in. */
  url: string
  expires: Date
  provider: EmailConfig
  /** The plain token (the store only has its hash). */
  token: string
  request: Request
  /** The configuration's `theme`, its `name` filled in (the origin's host when none is set). */
  theme: Theme & { name: string }
  /**
   * latchkey's addition: the one-time code to show beside the link (the store only has its
   * hash), unless the provider's `code` is false; it expires at `codeExpires`.
   */
  code?: string
  codeExpires?: Date
  /**
   * latchkey's addition: the sign-in email as latchkey writes it, in the language of the request
   * that asked for it (its `Accept-Language` among the server's `languages`). The built-in
   * providers send it as it is.
   */
  message?: { subject: string; text: string; html: string }
}

/** latchkey's addition: the one-time code an email carries beside its link. */
export interface EmailCodeOptions {
  /** Characters in the code. Default 6. */
  length?: number
  /** The characters it is drawn from. Default the digits 0-9. */
  alphabet?: string
  /** Lifetime, in seconds. Default 10 minutes. */
  maxAge?: number
  /** Wrong entries that burn the code. Default 5. */
  maxAttempts?: number
}

export interface EmailConfig extends CommonProviderOptions {
  type: 'email'
  /** Sender address. */
  from?: string
  /** Lifetime of the emailed link, in seconds. Default 24 hours. */
  maxAge?: number
  sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>
  /**
   * latchkey's addition: delivers a message latchkey wrote (the `Password()` provider's emails)
   * through this provider's transport. The Nodemailer provider has it.
   */
  sendMail?: (message: { to: string; subject: string; text: string; html: string }) => Promise<void>
  /** Returns the plain token to email; default 32 random bytes, base64url. */
  generateVerificationToken?: () => Awaitable<string>
  /** Normalises the address; default lower-cases it and refuses anything not shaped like one. */
  normalizeIdentifier?: (identifier: string) => string
  /**
   * latchkey's addition: a one-time code in the email beside the link, to type on the device
   * where the address was entered. On by default; false sends the link alone.
   */
  code?: boolean | EmailCodeOptions
  /** SMTP server or service settings, for built-in email providers. */
  server?: unknown
  apiKey?: string
  options?: Record<string, unknown>
}

export interface CredentialInput {
  label?: string
  type?: string
  placeholder?: string
  [attribute: string]: unknown
}

export interface CredentialsConfig<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>
  extends CommonProviderOptions {
  type: 'credentials'
  /** Fields of the sign-in form. */
  credentials: C
  /**
   * The field that names the account, for the per-account rate limits: they count by its value
   * (trimmed, lower-cased). Default: the first declared field named `username` or `email`, else
   * the first declared field not of type `password`; with no fields declared, `username` and
   * `email` both count.
   */
  accountField?: Extract<keyof C, string>
  /** Returns the user for these credentials, or null to refuse. The returned `id` becomes the account's `providerAccountId`. */
  authorize: (credentials: Partial<Record<keyof C, unknown>>, request: Request) => Awaitable<User | null>
}

export interface RelyingParty {
  id: string
  name: string
  origin: string
}

export interface WebAuthnConfig extends CommonProviderOptions {
  type: 'webauthn'
  /** Defaults from the request URL: its host name, its origin. */
  relyingParty?: Partial<RelyingParty>
  /** Ceremony timeout in milliseconds. Default 5 minutes. */
  timeout?: number
  userVerification?: 'required' | 'preferred' | 'discouraged'
  residentKey?: 'required' | 'preferred' | 'discouraged'
  /** Offer passkeys in the browser's autofill. Default true. */
  enableConditionalUI?: boolean
  /**
   * What the browser should offer first, in order (WebAuthn `hints`): `security-key`,
   * `client-device` (this device), `hybrid` (a phone). The passkey client may pass others per call.
   */
  hints?: Array<'security-key' | 'client-device' | 'hybrid'>
  /**
   * Other origins (`https://example.co.uk`) whose pages may use this RP ID (WebAuthn related
   * origin requests): served at `/.well-known/webauthn` of the RP ID's host, and accepted as the
   * origin of a ceremony. Any origin not listed (nor the RP's own) is refused.
   */
  relatedOrigins?: string[]
  /**
   * Automatic passkey upgrades: right after a sign-in by password, email or OAuth, the passkey
   * client may ask the password manager to create a passkey without a prompt (conditional
   * create). Each such sign-in then stores a one-time record. Default false.
   */
  automaticUpgrade?: boolean
  /** Tells registration who the new user is, from the request. Default: the `email` query parameter. */
  getUserInfo?: (request: Request) => Awaitable<{ email: string; name?: string | null } | null>
}

/**
 * A provider: a configuration object or a function returning one. The profile defaults to `any`,
 * as in Auth.js: a built-in provider typed for its own profile (`OAuthConfig<GitHubProfile>`) takes
 * `profile(p: GitHubProfile)`, which under `strictFunctionTypes` does not fit `(p: Profile) => ...`.
 */
export type Provider<P extends Profile = any> = (
  | OIDCConfig<P>
  | OAuth2Config<P>
  | EmailConfig
  | CredentialsConfig<any>
  | WebAuthnConfig
  | PluginProviderConfig
) | ((...args: any[]) => OAuthConfig<P> | EmailConfig | CredentialsConfig<any> | WebAuthnConfig | PluginProviderConfig)

export type AppProviders = Array<Provider | ReturnType<Extract<Provider, (...args: any[]) => unknown>>>

// ---------------------------------------------------------------- 2.6 adapter records

export interface AdapterUser extends User {
  id: string
  email: string
  /** Null until the first sign-in with an email provider; then its date. */
  emailVerified: Date | null
  name?: string | null
  image?: string | null
}

export interface AdapterAccount {
  userId: string
  type: AdapterAccountType
  provider: string
  /** oauth/oidc: the profile id; email: the address; credentials: the id from `authorize`; webauthn: the credential id. */
  providerAccountId: string
  readonly access_token?: string
  readonly refresh_token?: string
  readonly id_token?: string
  readonly scope?: string
  /** Always lower-case. */
  readonly token_type?: Lowercase<string>
  readonly expires_in?: number
  /** Seconds since the epoch at which the access token expires. */
  expires_at?: number
  readonly session_state?: string
  readonly authorization_details?: AuthorizationDetails[]
  /**
   * latchkey's addition: set when refreshing the access token failed for good (the provider
   * refused the refresh token); the user must sign in with this provider again. Cleared then.
   */
  readonly refresh_error?: string
  [extra: string]: unknown
}

/** The token fields `updateAccount` may change; `undefined` leaves a field, `null` clears it. */
export interface AccountChanges {
  access_token?: string | null
  refresh_token?: string | null
  id_token?: string | null
  scope?: string | null
  token_type?: string | null
  expires_in?: number | null
  expires_at?: number | null
  refresh_error?: string | null
}

export interface AdapterSession {
  sessionToken: string
  userId: string
  expires: Date
  /** latchkey's addition: when the sign-in that made the session happened (fresh-session checks). */
  createdAt?: Date
  /** latchkey's addition: the User-Agent of the sign-in, for the user's list of devices. */
  userAgent?: string | null
  /** latchkey's addition: the id of the provider the session's sign-in used (a credentials one counts as a way to sign in: server/sign-in/ways.ts). */
  signInProvider?: string | null
  /** latchkey's addition: how the session's sign-in proved the user (`session.amr`: `pwd`, `otp`, `mfa`, …), or null. */
  amr?: string[] | null
  /** latchkey's addition: the device key a bound session was registered with (DBSC), or null. */
  deviceBinding?: DeviceBinding | null
  /**
   * latchkey's addition, read by `getSessionAndUser` only: true when one of the user's accounts
   * carries `refresh_error`, so the session can say so without a second read.
   */
  refreshError?: boolean
  /**
   * latchkey's addition, read by `getSessionAndUser` only: what plugins' schemas add to the
   * session read (`PluginSchema.sessionRead`), by plugin id, read in the same round trip. Absent
   * where the adapter does not join them (an Auth.js adapter): the plugin then reads them itself.
   */
  pluginData?: Record<string, unknown>
}

/** A device-bound session's registration: its DBSC session id and the device's public key. */
export interface DeviceBinding {
  id: string
  jwk: PublicJWK
}

/** A public key as a JSON Web Key (RFC 7517); Web Crypto's `JsonWebKey` fits it. No DOM library needed. */
export interface PublicJWK {
  kty?: string
  crv?: string
  x?: string
  y?: string
  n?: string
  e?: string
  alg?: string
  kid?: string
  use?: string
  key_ops?: string[]
  ext?: boolean
}

export interface VerificationToken {
  /** The email address. */
  identifier: string
  /** The token hashed with the secret. */
  token: string
  expires: Date
}

/** latchkey's addition: a one-time email code, as the store keeps it (`code` is a hash). */
export interface VerificationCode {
  identifier: string
  code: string
  expires: Date
}

/** latchkey's addition: what one attempt at a code found (see `Adapter.useVerificationCode`). */
export type VerificationCodeAttempt =
  | { result: 'used'; expires: Date }
  | { result: 'wrong'; attemptsLeft: number }
  | { result: 'exhausted' }
  | { result: 'none' }

/** latchkey's addition: a second factor a user enrolled (an authenticator app). */
export interface AdapterFactor {
  id: string
  userId: string
  /**
   * 'totp': an authenticator app (RFC 6238). 'device': a browser trusted to skip the second factor
   * for a while ("don't ask again on this device"). Recovery codes are kept apart; passkeys are authenticators.
   */
  type: 'totp' | 'device'
  /**
   * totp: the secret, sealed with the configuration's secret by the server (never the plain base32).
   * device: a hash of the device cookie's token and of the factors it was trusted under. Opaque to the adapter.
   */
  secret: string
  /** Null until a first code confirms the enrolment. */
  confirmedAt: Date | null
  createdAt: Date
  /** The last TOTP time step a code was accepted for; null before the first. */
  lastUsedStep: number | null
  /** A name the user gave it ("Phone"), or null. */
  label: string | null
}

export interface AdapterAuthenticator {
  /** Base64url credential id. */
  credentialID: string
  /** Base64url public key. */
  credentialPublicKey: string
  userId: string
  providerAccountId: string
  counter: number
  credentialDeviceType: string
  credentialBackedUp: boolean
  /** Comma-joined transports. */
  transports?: string | null
  /** latchkey's addition: when the passkey was registered. Adapters that keep it answer it; absent otherwise. */
  createdAt?: Date | null
  /** latchkey's addition: the authenticator model's AAGUID (lower-case, dashed), where it sent one; names it in the passkey list. */
  aaguid?: string | null
  /** latchkey's addition: the name the user gave the passkey (`updateAuthenticatorName`); null or absent for none. */
  name?: string | null
}

// ---------------------------------------------------------------- 4 the adapter

/** The only way to the data. Every method is optional; the server checks for the ones it needs. */
export interface Adapter {
  /**
   * latchkey's addition: resolves while the store answers, throws when it does not (the
   * PostgreSQL adapter: `StoreUnavailable`). GET /health/ready asks it; without it, readiness
   * answers on the process alone.
   */
  ping?(): Awaitable<void>
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(providerAccountId: Pick<AdapterAccount, 'provider' | 'providerAccountId'>): Awaitable<AdapterUser | null>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, 'id'>): Awaitable<AdapterUser>
  /** Not invoked by the service. */
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>
  linkAccount?(account: AdapterAccount): Promise<void> | Awaitable<AdapterAccount | null | undefined>
  /** Not invoked by the service. */
  unlinkAccount?(providerAccountId: Pick<AdapterAccount, 'provider' | 'providerAccountId'>): Promise<void> | Awaitable<AdapterAccount | undefined>
  getAccount?(providerAccountId: AdapterAccount['providerAccountId'], provider: AdapterAccount['provider']): Awaitable<AdapterAccount | null>
  createSession?(session: { sessionToken: string; userId: string; expires: Date; createdAt?: Date; userAgent?: string | null; signInProvider?: string | null; amr?: string[] | null }): Awaitable<AdapterSession>
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(session: Partial<AdapterSession> & Pick<AdapterSession, 'sessionToken'>): Awaitable<AdapterSession | null | undefined>
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>
  createVerificationToken?(verificationToken: VerificationToken): Awaitable<VerificationToken | null | undefined>
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  /**
   * latchkey's addition: deletes the verification tokens that match every condition given (all of
   * one `identifier`; those that expired before `expiredBefore`), at most `limit` of them, and
   * answers how many it deleted. Needs `identifier` or `expiredBefore`. Without it, nothing is purged.
   */
  deleteVerificationTokens?(filter: { identifier?: string; expiredBefore?: Date; limit?: number }): Awaitable<number>
  /**
   * latchkey's addition, for one-time email codes: keeps `code` (a hash) as the one code of
   * `identifier`, replacing any earlier one, with no attempts counted yet.
   */
  createVerificationCode?(code: VerificationCode): Awaitable<void>
  /**
   * latchkey's addition: one attempt at the code of `identifier`, counted atomically in the store
   * (so servers sharing it share the count). The attempt is counted first; when the count is at
   * most `maxAttempts` and `codes` holds the stored code, the code is used (deleted) and `used`
   * answered with its expiry; otherwise `wrong` with the attempts left, `exhausted` once more than
   * `maxAttempts` were made, or `none` when there is no code.
   */
  useVerificationCode?(attempt: { identifier: string; codes: string[]; maxAttempts: number }): Awaitable<VerificationCodeAttempt>
  /**
   * latchkey's addition: deletes the codes that expired before `expiredBefore`, at most `limit` of
   * them, and answers how many it deleted. Without it, expired codes stay until their identifier asks again.
   */
  deleteVerificationCodes?(filter: { expiredBefore: Date; limit?: number }): Awaitable<number>
  /** latchkey's addition: stores a new factor (throws AdapterError DuplicateFactor on an id in use, UnknownUser for a user that does not exist) and returns it. */
  createFactor?(factor: AdapterFactor): Awaitable<AdapterFactor>
  /** latchkey's addition: the user's factors, oldest first; [] for an unknown user. */
  listFactorsByUserId?(userId: string): Awaitable<AdapterFactor[]>
  /** latchkey's addition: sets `confirmedAt` and returns the factor, or null when none has that id. */
  confirmFactor?(id: string, confirmedAt: Date): Awaitable<AdapterFactor | null>
  /**
   * latchkey's addition: records `step` as the factor's last used TOTP step only if it is above
   * the stored one (or none is stored), atomically; answers whether it did. Of concurrent callers
   * with the same step exactly one gets true; a step at or below the stored one always gets false.
   */
  useFactorStep?(id: string, step: number): Awaitable<boolean>
  /** latchkey's addition: deletes the factor and returns it, or null when none has that id. */
  deleteFactor?(id: string): Awaitable<AdapterFactor | null>
  /**
   * latchkey's addition: the user's recovery codes (their hashes, opaque to the adapter) become
   * exactly `codes`; the old set is gone. `[]` removes them all. Throws UnknownUser when storing
   * codes for a user that does not exist.
   */
  replaceRecoveryCodes?(userId: string, codes: string[]): Awaitable<void>
  /** latchkey's addition: deletes the user's recovery code `code` (a hash) and answers true, or false when the user has no such code; atomic: of concurrent uses exactly one wins. */
  useRecoveryCode?(userId: string, code: string): Awaitable<boolean>
  /** latchkey's addition: how many recovery codes the user has left. */
  countRecoveryCodes?(userId: string): Awaitable<number>
  /**
   * latchkey's addition: the user's password hash (a PHC string, opaque to the adapter), or null
   * when the user has none or does not exist. The hash never travels in `AdapterUser`.
   */
  getPasswordHash?(userId: string): Awaitable<string | null>
  /**
   * latchkey's addition: stores `hash` as the user's password hash, replacing any earlier one;
   * `null` removes it. Throws UnknownUser when storing a hash for a user that does not exist.
   */
  setPasswordHash?(userId: string, hash: string | null): Awaitable<void>
  /** Throws when creation fails. */
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  getAuthenticator?(credentialID: AdapterAuthenticator['credentialID']): Awaitable<AdapterAuthenticator | null>
  /** `[]` for an unknown user; throws when retrieval fails otherwise. */
  listAuthenticatorsByUserId?(userId: AdapterAuthenticator['userId']): Awaitable<AdapterAuthenticator[]>
  /** Throws when the update fails. */
  updateAuthenticatorCounter?(credentialID: AdapterAuthenticator['credentialID'], newCounter: AdapterAuthenticator['counter']): Awaitable<AdapterAuthenticator>
  /** latchkey's addition: sets the passkey's `name` (null clears it) and returns it, or null when none has that credential id. */
  updateAuthenticatorName?(credentialID: AdapterAuthenticator['credentialID'], name: string | null): Awaitable<AdapterAuthenticator | null>
  /** latchkey's addition: removes one authenticator and returns it, or null when none matched. */
  deleteAuthenticator?(credentialID: AdapterAuthenticator['credentialID']): Awaitable<AdapterAuthenticator | null>
  /** latchkey's addition: ends every session of the user (when an address is first proven). */
  deleteSessionsByUserId?(userId: AdapterSession['userId']): Awaitable<void>
  /**
   * latchkey's addition: gives the session stored under `from` the token `to`, in one atomic step,
   * and answers it as it now is; null when no session has `from` (another server moved it first).
   * Moving sessions another library stored (their raw cookie as the token) into latchkey's form.
   */
  replaceSessionToken?(from: AdapterSession['sessionToken'], to: AdapterSession['sessionToken']): Awaitable<AdapterSession | null>
  /** latchkey's addition: every session of the user (expired ones may be included), for the user's list of devices. */
  listSessionsByUserId?(userId: AdapterSession['userId']): Awaitable<AdapterSession[]>
  /** latchkey's addition: the user's linked accounts, `[]` for an unknown user. */
  listAccountsByUserId?(userId: AdapterAccount['userId']): Awaitable<AdapterAccount[]>
  /**
   * latchkey's addition: changes an account's token fields and returns the account, or null when
   * no account matched. With `ifRefreshToken` (a string, or null for "none") it is a
   * compare-and-set: the change applies only while the stored refresh token is still that one,
   * so of two servers refreshing at once exactly one stores its tokens (the other gets null).
   */
  updateAccount?(
    account: Pick<AdapterAccount, 'provider' | 'providerAccountId'> & AccountChanges,
    options?: { ifRefreshToken?: string | null },
  ): Awaitable<AdapterAccount | null>
}

// ---------------------------------------------------------------- helpers

/** True when the value is a string holding an ISO 8601 date-time. Adapters use it to revive dates. */
export function isDate(value: any): any {
  return typeof value === 'string' && isoDate.test(value) && !Number.isNaN(Date.parse(value))
}

const isoDate = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
