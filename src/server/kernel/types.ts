/**
 * The kernel's shared types, in one module that imports no other kernel module but two leaves
 * (cookie names, the token cache): the request context, the resolved configuration, and the
 * contract features implement. Declared here, and re-exported where each belongs, so no two kernel
 * modules need each other's types.
 */
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser, AppProvider, Session, User, AuthConfig, CredentialsConfig, EmailConfig, JWT, Logger, OAuthConfig, SessionOptions, Theme, WebAuthnConfig } from '../../core/types.js'
import type { RateLimitActionSpec, ResolvedRateLimit } from '../../core/rate-limit.js'
import type { AuthError, ErrorType } from '../../core/errors.js'
import type { CookieKey, CookieNames } from './cookies.js'
import type { TokenCache } from './token-cache.js'
import type { PageMessages, Plural } from '../../locales/index.js'

export type PageKey = keyof PageMessages

/** One language's words for the pages (page-language.ts). */
export interface PageWords {
  readonly lang: string
  readonly dir: 'ltr' | 'rtl'
  /** The message as plain text, its `{names}` filled in from `values` (a title: page() escapes it). */
  text(key: PageKey, values?: Record<string, string | number>): string
  /**
   * The message as HTML: its text and `values` escaped; `markup` fills in names with HTML as
   * given (the caller escapes what it puts there).
   */
  html(key: PageKey, values?: Record<string, string | number>, markup?: Record<string, string>): string
}

/** A plugin's messages: English with every key, other languages by tag with some of them. */
export type PluginMessages<K extends string = string> = { en: Record<K, string | Plural> } & { [tag: string]: Partial<Record<K, string | Plural>> }

/**
 * The configured languages, best default first, and their words. A shipped language but English
 * arrives after start-up (`ready`); `loaded` is checked first, so a request that needs no page
 * words never waits, and one that does waits only while `loaded` is false.
 */
export interface PageLanguages {
  tags: string[]
  words: Map<string, PageWords>
  loaded: boolean
  ready: Promise<void>
  /** English (with the app's `messages.en`): a language that failed to load, or not loaded yet. */
  fallback: PageWords
}

/** A method of the adapter contract. */
export type AdapterMethod = keyof Adapter

/** A request body, form or JSON, as read. */
export type Body = Record<string, unknown>

/**
 * A route's answer. The Web handler makes one Response of it at the end; the node binding writes
 * it straight to node's response, since on Node 20 a Response with a body builds a ReadableStream
 * and reading one back costs more than a session read.
 */
export interface Reply {
  status: number
  /** By lower-case name. */
  headers: Record<string, string>
  cookies: string[]
  body: string | null
}

/**
 * What the handler reads of a request. The node binding gives one that builds its Web `Request`
 * only when a route asks for it: on Node 20 that construction costs more than a session read.
 */
export interface Incoming {
  method: string
  /** The URL's path and origin, which every request needs; `url` parses the rest when a route asks. */
  pathname: string
  origin: string
  readonly url: URL
  /** A header's value as `Headers.get` would give it. */
  header(name: string): string | null
  request(): Request
}


/** Per-request state (context.ts makes it): the parsed request, the configuration, and what the response will carry. */
export interface Context {
  incoming: Incoming
  config: ResolvedConfig
  /** The app's public origin (public-origin.ts): never taken from an untrusted Host. */
  origin: string
  secure: boolean
  cookies: Map<string, string>
  /** The kernel's own cookie names for this request; a feature names its own cookies (cookies.ts `cookieKey`). */
  names: CookieNames
  /** The clock reading for this request, in milliseconds. */
  now: number
  setCookies: string[]
  /** Headers the response carries beside the route's own, by lower-case name; respond.ts adds them. */
  headers: Record<string, string>
  /** The request's URL, parsed on first use. */
  readonly url: URL
  /** Origin plus basePath: where the routes live. */
  readonly baseUrl: string
  /** The caller asked for `200 { url }` instead of a redirect (`X-Auth-Return-Redirect: 1`, or `json=true` in the body: body.ts). */
  readonly returnRedirect: boolean
  /** The Web `Request`; under the node binding it is built on first use. */
  readonly request: Request
}

export interface OriginRule {
  /** Configured public origins, by host (`name[:port]`); the first is the default. */
  hosts: Map<string, string>
  first: string | undefined
  /** The platform sets Host (and X-Forwarded-*) itself; take them as the origin. */
  trustHost: boolean
}

export type ResolvedProvider = OAuthConfig<any> | EmailConfig | CredentialsConfig<any> | WebAuthnConfig

export interface ResolvedConfig {
  basePath: string
  secrets: string[]
  providers: Map<string, ResolvedProvider>
  session: Required<Omit<SessionOptions, 'generateSessionToken' | 'deviceBound'>> & Pick<SessionOptions, 'generateSessionToken'>
  /** Device-bound sessions, or null when off. */
  deviceBound: { cookieMaxAge: number; requireFor?: (user: AdapterUser) => boolean } | null
  adapter?: Adapter
  callbacks: NonNullable<AuthConfig['callbacks']>
  events: NonNullable<AuthConfig['events']>
  pages: NonNullable<AuthConfig['pages']>
  redirectProxyUrl?: string
  trustedOrigins: Set<string>
  /** How each request's public origin is decided (public-origin.ts). */
  originRule: OriginRule
  useSecureCookies?: boolean
  maxBodySize: number
  /** The built-in pages' languages and their words (page-language.ts). */
  pageLanguages: PageLanguages
  /** The app's brand, checked (theme.ts); its name is filled in per request (`requestTheme`). */
  theme: Theme
  logger: Logger
  now: () => number
  /** Adapter methods the configuration needs and the adapter lacks; checked again at call time. */
  missingMethods: string[]
  /** Every cookie the instance's features declared (`LatchkeyPlugin.cookies`), by its name after `latchkey.`, with who declared it. */
  cookies: ReadonlyMap<string, { key: CookieKey; owner: string }>
  /** The sign-in method of each provider type, from the instance's plugins. */
  methods: Map<string, SignInMethod>
  /** What the instance is built from: the shared sign-in step, the built-in plugins, then the configuration's and its providers'. */
  plugins: readonly LatchkeyPlugin[]
  /** The error codes the plugins registered (`LatchkeyPlugin.errorCodes`): the browser may see them. */
  errorCodes: ReadonlySet<string>
  /** Null when turned off (`rateLimit: false`). */
  rateLimit: ResolvedRateLimit | null
  /** How a bound session's read checks its device, from the feature that binds (dbsc); none when off. */
  binding?: SessionBinding
  /** What the completion step asks of second factors, from the feature that keeps them (mfa); none when off. */
  secondFactor?: SecondFactorGate
  /** Proofs by a user's registered keys, from the feature that keeps them (webauthn); none without a WebAuthn provider. */
  keyProofs?: KeyProofs
  /** Sessions another library made, read until a date (features/authjs-migration); none when off. */
  adoptedSessions?: AdoptedSessions
  /** The plugins with `sessionFields`, in order: what each session read asks (none: the read asks nothing more). */
  sessionPlugins: readonly LatchkeyPlugin[]
  /** Decrypted JWT sessions, keyed by cookie value. */
  sessionTokens: TokenCache<JWT & { exp: number; iat: number }>
}

/** A first factor that resolved its user, about to start a session (sign-in/complete.ts). */
export interface FirstFactor {
  user: AdapterUser | User
  provider?: string
  account: AdapterAccount | null
  isNewUser: boolean
  /** The sign-in instant to keep, where the sign-in only linked over a held session. */
  signedInAt?: number
  /** How the user proved who they are, as `session.amr` names it: `pwd`, `email`, `fed`, `hwk` (and `user` with user verification). */
  amr: string[]
  /** The user already holds a session here (a sign-in again, or a link): the second factor was asked then. */
  holdsSession: boolean
  /** The account this sign-in adds to the user, linked only once it completes: a pending sign-in carries it. */
  link?: AdapterAccount
}

/**
 * A step due before the session starts (a second factor): not a failure but the sign-in's answer
 * for now, returned by the completion step (sign-in/complete.ts) and answered by its caller.
 */
export interface DueStep {
  /** The error type the browser gets for it (as `?error=` on the sign-in page), so the client knows what to ask. */
  due: ErrorType
  /** What to do next, for the log and the JSON answer. */
  message: string
  status: number
  /** The names of the cookies the step set: the answer keeps them, and drops the others this request set. */
  cookies: string[]
}

/** What the completion step asks of second factors. */
export interface SecondFactorGate {
  /**
   * Before any session: the step due (`SecondFactorRequired`), having left the pending sign-in in
   * the browser, where the user must prove a second factor; undefined where none is needed.
   */
  check(ctx: Context, first: FirstFactor): Promise<DueStep | undefined>
  /** The built-in sign-in page's second step (no script needed), for a browser that holds a pending sign-in; undefined otherwise. */
  pageForm(ctx: Context, hidden: string): Promise<string | undefined>
  /** Every browser trusted to skip the step for the user asks again (a password reset: features/password). */
  forgetTrustedDevices(ctx: Context, userId: string): Promise<void>
  /** The first proof of the user's address (sign-in/first-proof.ts): the second factors set up before it go. */
  onAddressProven(ctx: Context, user: AdapterUser): Promise<void>
}

/** What a key proof's challenge is for: `second-factor`, a sign-in's second step, which no sign-in accepts. */
export type KeyProofPurpose = 'second-factor'

/**
 * Proofs by a user's registered keys (passkeys, security keys), for a feature that asks for one
 * without running the ceremony itself (mfa's second factor). The ceremony code loads on first use.
 */
export interface KeyProofs {
  /** The credential ids of the user's keys; `needFor` names the use where the adapter lacks a method. */
  keys(ctx: Context, userId: string, needFor: string): Promise<string[]>
  /** Request options for the user's keys over a challenge made for `purpose` (its cookie set); null when the user has no key. */
  options(ctx: Context, userId: string, ask: { purpose: KeyProofPurpose; userVerification: 'required' | 'preferred' | 'discouraged'; needFor: string }): Promise<object | null>
  /** True when `assertion` is a valid answer by one of `userId`'s keys to a challenge made here for `purpose`; any refusal is false. */
  verify(ctx: Context, userId: string, purpose: KeyProofPurpose, assertion: unknown): Promise<boolean>
}

/** A session another library made, as the session read (session.ts) takes it over. */
export type AdoptedSession =
  /** JWT strategy: the claims to carry, `exp` (seconds) the expiry the new token keeps. */
  | { payload: JWT & { exp: number; iat: number } }
  /** Database strategy: the record's token in the store, and the cookie that names it. */
  | { cookie: string; sessionToken: string }

/** What the session read asks of sessions another library made. */
export interface AdoptedSessions {
  /**
   * The request's old session, when it holds one latchkey may still read; null when not (its old
   * cookies cleared). With `write`, a database record is moved to latchkey's form first and the
   * old cookies are cleared; without, nothing changes (no response will carry a cookie).
   */
  adopt(ctx: Context, write: boolean): Promise<AdoptedSession | null>
  /** Sign-out: ends the request's old session, its record deleted and its cookies cleared. */
  end(ctx: Context): Promise<void>
}

/** What the session read (session.ts) asks of device binding. */
export interface SessionBinding {
  /** True when the request carries the binding's short-lived proof (its bound cookie). */
  proven(ctx: Context, bindingId: string): Promise<boolean>
  /** Offers the browser to bind a new session. */
  offer(ctx: Context, sessionCookie: string): Promise<void>
  /** Asks the device of the bound session `bindingId` to prove it holds the key: a challenge in `challengeHeader`. */
  askForProof(ctx: Context, sessionCookie: string, bindingId: string): Promise<void>
  /** The response header (lower-case, in `ctx.headers`) that carries that challenge. */
  challengeHeader: string
}

export type Route = (ctx: Context, providerId: string | undefined) => Promise<Reply>

/** One path segment under basePath and what answers it. */
export interface Action {
  GET?: Route
  POST?: Route
  /** PUT, PATCH and DELETE: for a plugin that speaks another REST protocol (SCIM); the shared routes take none. */
  PUT?: Route
  PATCH?: Route
  DELETE?: Route
  /** Takes a provider id as the next path segment. */
  provider?: boolean
  /** Takes the rest of the path, any segments, still percent-encoded, as the route's second argument (`provider` is then ignored). */
  subpath?: boolean
  /** Failures send the browser to a page rather than answering JSON. */
  flow?: boolean
  /** Answers without page words: never waits for the configured languages to load (`PageLanguages.ready`). */
  wordless?: boolean
  /**
   * Its own cross-origin rule, in place of the app's `trustedOrigins` (src/server/kernel/cors.ts):
   * given the sub-path segment (the provider id), the rule, or undefined for no cross-origin calls.
   */
  cors?: (ctx: Context, sub: string | undefined) => CorsRule | undefined
}

/** Who may call a route from another origin, and with what; never with credentials. */
export interface CorsRule {
  /** `'*'`: any origin (public documents); else the origins (`https://host[:port]`) echoed back. */
  origins: '*' | ReadonlySet<string>
  /** The methods a preflight may ask for. */
  methods: readonly string[]
  /** Request headers beyond the CORS-safelisted ones, lower case. */
  headers: readonly string[]
  /** Response headers the page may read. */
  expose: readonly string[]
}

export interface SignInMethod {
  /** The provider types it runs. */
  types: readonly string[]
  /** The sign-in leaves the site before it completes, so "confirm it's you" travels in a cookie. */
  leavesSite: boolean
  /** POST /signin/:provider, after the CSRF check: where the browser goes next. Absent: it starts elsewhere. */
  start?(ctx: Context, provider: ResolvedProvider, body: Body, callbackUrl: string): Promise<Reply>
  /** GET or POST /callback/:provider: finishes the sign-in and sends the browser on. */
  callback(ctx: Context, provider: ResolvedProvider, body: Body): Promise<Reply>
  /** Adapter methods a configured provider of this kind needs. */
  adapterMethods?(config: ResolvedConfig): AdapterMethod[]
  /**
   * Its form on the built-in sign-in page, given the hidden CSRF and callback inputs (and the
   * request, for the URLs of its own routes: `ctx.baseUrl`), with any link to its other pages
   * (a password's reset and sign-up); null leaves the provider off the page. Absent: a button that
   * posts to /signin/:provider.
   */
  pageForm?(provider: ResolvedProvider, app: AppProvider, hidden: string, words: PageWords, ctx: Context): string | null
  /**
   * The script its form needs on the built-in sign-in page (a passkey's WebAuthn ceremony), added
   * once wherever one of its forms shows. It runs inline, allowed by its hash in the page's CSP
   * (`script-src`), and may call only the page's origin (`connect-src 'self'`); a form that needs
   * it should start `hidden` and be shown by it, so a browser without scripts sees no dead button.
   */
  pageScript?: string
  /** What the app is told of the provider beyond id, name, type and URLs (GET /providers). */
  describe?(provider: ResolvedProvider): Partial<AppProvider>
  /** Origins the page's forms may reach through the provider (CSP form-action). */
  formTargets?(provider: ResolvedProvider): string[]
  /** True when the user can sign in with this provider whatever account or passkey is removed (the last-way rule). */
  keepsWayIn?(ctx: Context, provider: ResolvedProvider, user: AdapterUser, signInProvider: string | undefined): boolean
  /**
   * This method makes users whose address nobody vouched for (passkeys): the first proof of the
   * address calls it to remove what it made before (sign-in/first-proof.ts).
   */
  onAddressProven?(ctx: Context, user: AdapterUser): Promise<{ removed: number }>
  /** A sign-in with this provider can prove an address (an email link, a password confirmation, a provider trusted to link by email). */
  provesAddress?(provider: ResolvedProvider): boolean
  /**
   * Runs after every sign-in that started a session, whatever its provider (sign-in/complete.ts):
   * `linked` when it only added a way to a held session. Passkeys leave an upgrade marker here.
   */
  afterSignIn?(ctx: Context, signIn: SignedInNow): Promise<void>
}

/** The session a sign-in just started: its stored record (database strategy) or its token's claims (JWT), and its end (ms). */
export interface StartedSession {
  record?: AdapterSession
  token?: JWT
  expiresAt: number
}

/** What `afterSignIn` is told: who signed in, by which provider, whether it only linked a way, and the session it started. */
export interface SignedInNow {
  user: AdapterUser | User
  provider?: string
  linked: boolean
  session: StartedSession
}

/** What `LatchkeyPlugin.beforeSignIn` is told of a sign-in under way. */
export interface SignInAttempt {
  /** `start`: a way that starts with an address, before it sends or checks anything; `complete`: the completion step. */
  step: 'start' | 'complete'
  /** The address it signs in with, lower-cased and trimmed; null where it has none. */
  email: string | null
  /** The provider's id (`password`, `email`, `google`, `sso`...). */
  provider: string | undefined
  /** The user as the way in describes them, or the stored user (`complete` only). */
  user?: AdapterUser | User
  /** The account the sign-in comes through (`complete`, for a way with accounts). */
  account?: AdapterAccount | null
}

/**
 * A plugin: everything one feature adds to a `Latchkey` instance, in one object. latchkey's own
 * ways in (OAuth, email, passkeys, passwords...) are plugins on this same contract; a third party
 * writes one the same way, from what latchkey/server exports (docs/architecture.md, "Write a plugin").
 */
export interface LatchkeyPlugin {
  /** Its one name: in messages, and the owner of what it registers. Letters, digits and "-". */
  id: string
  /**
   * Whether the configuration uses it (latchkey's own: a provider of its type, or its key in the
   * configuration set); an unused plugin is not installed: no routes, cookies or steps. Absent: used.
   */
  uses?(config: AuthConfig, providers: ReadonlyMap<string, ResolvedProvider>): boolean
  /** Runs once as an instance is built: checks its options (throw `configurationError` to refuse) and adds its services. */
  configure?(config: AuthConfig, resolved: ResolvedConfig): void
  /**
   * Routes under basePath, by their first path segment (a route name is one plugin's only). A name
   * starting `.well-known/` (the rest of the path, slashes and all) answers GET at the origin's
   * root instead (RFC 8615): the app routes that path to the handler.
   */
  routes?: Record<string, Action>
  /** The cookies it sets (`cookieKey`): two plugins, or a plugin and the kernel, never claim one name. */
  cookies?: readonly CookieKey[]
  /** For a way to sign in: the steps the shared routes take for a provider of its types. */
  method?: SignInMethod
  /**
   * The error codes it throws (`new AuthError(code, ...)`) that the browser may see, beyond the
   * built-in ones. Any other code it throws reaches the browser as `Configuration`.
   */
  errorCodes?: readonly string[]
  /**
   * Of its error codes, those a person goes on from at the sign-in page (`?error=`), as after a
   * wrong password, where a sign-in posted from a page is refused (not the error page); that page
   * then shows this plugin's form first. sso's `SsoRequired`: its form is the way on.
   */
  signInPageErrors?: readonly string[]
  /** The actions it counts (`enforceRateLimit`), with their default rules and words; `rateLimit.rules` in the configuration may replace the rules. */
  rateLimits?: Record<string, RateLimitActionSpec>
  /**
   * Its own words for pages, emails and texts, by language: English whole, any other shipped
   * language with some or all of English's keys (the rest falls back to English). Read through
   * `pluginWords(ctx, plugin.messages)` in the request's page language.
   */
  messages?: PluginMessages
  /**
   * Before a sign-in goes on, whatever its way in: answers a refusal (an `AuthError` with a code it
   * registers) to stop it, else nothing. Called where a way starts with an address (`step:
   * 'start'`: an email link or code about to be sent, a password about to be checked, a password
   * reset asked for or used, a confirmation email asked for again, where a refusal only stops the
   * email, after an answer that is the same for every address; no user yet),
   * and in the completion step (`'complete'`) before any user is made or linked, then again with
   * the stored user where its address differs from the one the way in gave. It must answer from
   * what it is given, never from whether an account exists, where the answer reaches a browser.
   */
  beforeSignIn?(ctx: Context, attempt: SignInAttempt): Promise<AuthError | undefined | void>
  /**
   * After every sign-in that started a session, whatever its way in; `linked` when it only added a
   * way to a held session. `session` is the one just started, for state the plugin keeps in it
   * (`rewriteSessionClaims`, or its own rows keyed by `session.record.sessionToken`).
   */
  afterSignIn?(ctx: Context, signIn: SignedInNow): Promise<void>
  /** After the session this browser held ended (sign-out, or ending it from the session list); `userId` where the session named one. */
  onSignOut?(ctx: Context, signOut: { userId?: string }): Promise<void>
  /** After the user signed out everywhere: every other session of theirs ended at their asking (POST /sessions `revoke-others`). */
  onSignOutEverywhere?(ctx: Context, event: { userId: string }): Promise<void>
  /** After the user's password was reset by its email (POST /password `reset`): every session of theirs ended. */
  onPasswordReset?(ctx: Context, event: { userId: string }): Promise<void>
  /**
   * The adapter methods it calls (the contract's or its schema's), checked at start-up with the
   * configured providers' (a missing one is logged as `MissingAdapterMethods`) and again at call
   * time by `useAdapter`.
   */
  adapterMethods?(resolved: ResolvedConfig): string[]
  /** What it adds to the store: tables and their methods, which the adapters given the plugin join to themselves. */
  schema?: PluginSchema<any>
  /**
   * At each session read (GET /session, `auth.getSession`), before the `session` callback: fields
   * to add to the session (a field it returns as undefined is left out). `stored` is what its
   * schema's `sessionRead` gave in the same round trip as the session (database strategy, an
   * adapter made with the plugin), and undefined otherwise (JWT, or an adapter that does not join
   * it): then the plugin reads what it needs itself. Runs for every read: keep it to one query at most.
   */
  sessionFields?(ctx: Context, read: SessionFieldsInput): Promise<Record<string, unknown> | undefined> | Record<string, unknown> | undefined
  /**
   * Whether `session` (as read, after the `session` callback) may do `permission` (`resource:action`):
   * `auth.can(request, permission)` and `auth.permits(session, permission)` ask each plugin that
   * answers; true when one says true. Undefined: the plugin does not decide this permission.
   */
  permits?(session: Session, permission: string): boolean | undefined
}

/** What a session read hands `LatchkeyPlugin.sessionFields`. */
export interface SessionFieldsInput {
  /** The session as built so far (before the `session` callback). */
  session: Session
  /** The stored user (database strategy). */
  user?: AdapterUser
  /** The stored record (database strategy): its `sessionToken` is the store's key. */
  record?: AdapterSession
  /** The token's claims (JWT strategy). */
  token?: JWT
  /** The plugin's `PluginSchema.sessionRead` value, read with the session; undefined where none was read. */
  stored: unknown
}

/** What a plugin's SQL methods send statements through: the shape of latchkey/adapters/postgres's `Queryable`. */
export interface SchemaQueryable {
  query<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<{ rows: T[] }>
}

/** One step of a plugin's tables, in PostgreSQL: applied once, in order, recorded under the plugin's id. */
export interface PluginMigration {
  /** 1, 2, 3...: the plugin's own numbering, apart from latchkey's. */
  version: number
  name: string
  statements: readonly string[]
}

/** The methods a plugin's schema adds to an adapter: each returns a promise. */
export type SchemaMethods = Record<string, (...args: any[]) => Promise<unknown>>

/**
 * A plugin's cases for `latchkey/adapter-test`, by title: each gets the adapter with the plugin's
 * methods joined and throws to fail. Run against every adapter the suite is given the plugin for.
 */
export type PluginAdapterTests<M extends object> = Record<string, (adapter: Adapter & M) => Promise<void>>

/**
 * What a plugin keeps in the store. `PostgresAdapter`, `migrate`, `openDatabase` and `MemoryAdapter`
 * take the plugins (`plugins: [...]`): `migrate` applies `migrations` in its transaction, and each
 * adapter joins the methods of `sql` or `memory` to its own.
 */
export interface PluginSchema<M extends object = SchemaMethods> {
  /** The plugin's tables in PostgreSQL, oldest first; `latchkey_plugin_schema` records those applied. */
  migrations: readonly PluginMigration[]
  /** Its methods over the SQL adapter's database. */
  sql(db: SchemaQueryable): M
  /** The same methods kept in memory, with the same rules: a new, empty store at each call. */
  memory(): M
  tests?: PluginAdapterTests<M>
  /**
   * What the plugin adds to the session read, in its one round trip: `sql`, a scalar SQL
   * expression giving JSON (or NULL) over `s`, the session's row, and `u`, its user's, which the
   * SQL adapter's `getSessionAndUser` selects beside them (say, a subquery joining the plugin's
   * tables on `s.session_token`); `method`, the name of one of the plugin's methods,
   * `(sessionToken, userId) => Promise<unknown>`, which answers the same, and which the memory
   * adapter calls in its place. Each lands in `session.pluginData[<plugin id>]`, and reaches
   * `LatchkeyPlugin.sessionFields` as `stored`.
   */
  sessionRead?: { sql: string; method: keyof M & string }
}

/**
 * Per-instance and per-request state (state.ts): values a feature keeps on the resolved
 * configuration or on the request's context, under typed keys, rather than in module-level maps.
 * Declared here as one block, merged into the two interfaces above: read and write it through an
 * `instanceKey` or `requestKey`, never directly.
 */
export type State = Map<object, unknown>
export interface ResolvedConfig {
  /** This instance's feature state, by key (state.ts `instanceKey`); gone with the instance. */
  readonly state: State
}
export interface Context {
  /** This request's feature state, by key (state.ts `requestKey`); gone with the request. */
  readonly state: State
}
