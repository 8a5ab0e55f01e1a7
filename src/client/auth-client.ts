/** The client's core as an app sees it: its options and its methods (create-auth-client.ts makes it). */
import type { WorkerRegistrationResult } from './register-worker.js'
import type { AppProvider, AuthStatus, Session, SessionState } from './types.js'
import type { ElementMessages, Language, ProfileMessages, SsoMessages } from '../locales/index.js'

export interface AuthClientOptions {
  /** Where the server's routes live: a path, or an absolute URL. Default `/auth`. */
  basePath?: string
  /**
   * Default (true): use the page's service worker when it includes latchkey's (see
   * docs/service-worker.md), registering nothing. A script (`'/latchkey-sw.js'`): register
   * latchkey's own worker first, unless another script is the worker at that scope.
   * false: keep sessions in the page. Always false where `basePath` is on another origin.
   */
  serviceWorker?: string | boolean
  /**
   * The elements' language (a BCP 47 tag), over the page's `lang` and the browser's; an element's
   * own `lang` attribute comes first. Default: none (docs/elements.md, "Languages").
   */
  locale?: string
  /** Messages of a shipped language the app words its own way: `{ en: { signOut: 'Log out' } }`. */
  messages?: { [tag in Language]?: Partial<ElementMessages & ProfileMessages & SsoMessages> }
  /**
   * Languages the app adds, each a whole catalogue (a missing key is a type error): `{ it: { ... } }`.
   * The account settings elements' words (`<latchkey-profile>`, `ProfileMessages`) and
   * `<latchkey-sso-setup>`'s (`SsoMessages`) may be left out: those then show in English.
   */
  languages?: Record<string, ElementMessages & Partial<ProfileMessages> & Partial<SsoMessages>>
}

/** What the elements speak: the `locale`, `messages` and `languages` options as given. */
export type AuthClientLanguages = Pick<AuthClientOptions, 'locale' | 'messages' | 'languages'>

export interface SignInOptions extends Record<string, unknown> {
  callbackUrl?: string
  /** false: credentials and email answer `{ ok, error, url }` instead of navigating. */
  redirect?: boolean
}

export interface SignInResult {
  ok: boolean
  error: string | undefined
  status: number
  url: string | null
}

export interface SignOutOptions {
  callbackUrl?: string
  redirect?: boolean
}

export interface AuthClient<S extends Session = Session> extends Readonly<AuthClientLanguages> {
  readonly status: AuthStatus
  /** The last session known, without asking. */
  readonly session: S | null | undefined
  /** What the session engine last said: the session, `due` (local clock, ms: when it is next refreshed) and `stale`. */
  readonly state: SessionState | undefined
  readonly basePath: string
  /** What became of the `serviceWorker` script to register; `skipped` says why and what to do. */
  readonly workerRegistration: Promise<WorkerRegistrationResult>
  getProviders(): Promise<Record<string, AppProvider>>
  /**
   * The ids of the plugins the server installed (GET /plugins: `mfa`, `password`, `webauthn`,
   * `organizations`, `sso`, `scim`, `oauth-server`, ...), asked once; undefined where the server
   * does not say (an Auth.js server, an older latchkey): then go by the client's plugins. Never throws.
   */
  getPlugins(): Promise<readonly string[] | undefined>
  getCsrfToken(): Promise<string>
  getSession(): Promise<S | null>
  /**
   * With `redirect: false` there is always a result (an OAuth sign-in still navigates to the
   * provider). A plugin may run the sign-in of a provider it knows: the passkey plugin's ceremony
   * for `signIn('passkey')`.
   */
  signIn(providerId: string | undefined, options: SignInOptions & { redirect: false }): Promise<SignInResult>
  signIn(providerId?: string, options?: SignInOptions): Promise<SignInResult | undefined>
  signOut(options?: SignOutOptions): Promise<{ url: string }>
  /** POST /session through the server's `session`/`jwt` callbacks; every tab hears the result. */
  update(data?: unknown): Promise<S | null>
  onSessionChange(listener: (session: S | null) => void): () => void
  /** The ways in the plugins draw in `<latchkey-signin>`, in the order they were passed. */
  readonly waysIn: readonly WayIn[]
}

/**
 * A way in `<latchkey-signin>` draws for the providers `knows` says yes to. `renderer` is the
 * element's own drawing of that name (`'passkey'`, `'password'`, `'code'`), or a loader of one of
 * your own: `() => import('your-app/way-in').then((m) => m.render)`, a `SignInRenderer` from
 * latchkey/components, imported the first time a page draws such a provider.
 */
export interface WayIn {
  knows(provider: AppProvider): boolean
  renderer: string | (() => Promise<unknown>)
  /**
   * What it signs in with, typed into the element's first step (docs/elements.md): then it is
   * offered in the step after, drawn `primary`, as a `choice` or at the `foot`. Absent: a button
   * of its own above the "or" (OAuth, a badge). The element's own drawings know theirs.
   */
  identifier?: WayInIdentifier
  /** The renderer's own words: its `host.t(key)` finds them before the element's catalogue. */
  messages?: WayInMessages
  /**
   * Whether it is offered for what was typed, asked once Continue was pressed (the one request
   * Continue may make, such as sso's home-realm discovery, which reads an address's domain only):
   * null, not offered; an offer, it becomes the step's primary, and `alone` leaves no other way.
   * Without it, a way is offered by the shape of what was typed alone.
   */
  offers?(client: AuthClient, identifier: string, options?: { fresh?: boolean }): Promise<WayInOffer | null>
  /**
   * Refusals (error codes) after which the element asks `offers` again for the identifier shown,
   * `fresh` (past any answer kept): sso's `SsoRequired`, where its connection became required
   * after discovery answered, or discovery failed. An offer then redraws the step around it.
   */
  offersAgainOn?: readonly string[]
}

/** A way's answer to what was typed (`WayIn.offers`): `detail` is for its renderer (`host.offered`). */
export interface WayInOffer {
  /** The only way offered for this identifier (an organization that requires its sign-in). */
  alone?: boolean
  detail?: unknown
}

/**
 * An email address, a phone number, a name of its own (it takes any text typed: a credentials
 * username), or `any`: it needs none (a passkey), and is offered whatever was typed.
 */
export type WayInIdentifier = 'email' | 'phone' | 'username' | 'any'

/**
 * A way in's words per language: English required, each other language any of the keys; a key a
 * language lacks is said in English.
 */
export type WayInMessages<K extends string = string> = { readonly en: Readonly<Record<K, string>> } & { readonly [lang: string]: Readonly<Partial<Record<K, string>>> | undefined }
