/**
 * The client's plugin contract: a plugin is a name and a `setup` that builds its namespace on the
 * client (`client[name]`) from a small kernel. mfa, password, email codes, phone codes, sessions,
 * accounts and passkeys are plugins written against this contract alone; a third party writes one
 * the same way (docs/client.md, "Plugins").
 */
import type { Reply } from './request.js'
import type { AppProvider, Session } from './types.js'
import type { AuthClient, AuthClientOptions, WayIn } from './auth-client.js'

/** What a plugin builds on: the client's core, and its two POST helpers. */
export interface ClientKernel {
  /** The core client (sign-in and out, session, providers, CSRF token), and the namespaces of the plugins set up before. */
  readonly client: AuthClient
  /** The server's base URL, absolute, without a trailing slash: `${base}/mfa`. */
  readonly base: string
  /** GET `base + path`: the JSON body; a refusal is an `AuthClientError` with the server's code. */
  get<T>(path: string): Promise<T>
  /**
   * POST `base + path` with the CSRF token (form fields, or JSON): the body and the response. A
   * refusal is an `AuthClientError` with the server's code. Call `settle` after a POST that may
   * change the session.
   */
  send<T>(path: string, fields: Record<string, string>, json?: boolean): Promise<Reply<T>>
  /** After a POST that may have changed the session: every tab, and the session engine, learn it. */
  settle(path: string, response?: Response): Promise<void>
  /** Takes over `client.signIn(id)` for the providers `claims` says yes to (the passkey plugin's ceremony, say). */
  claimSignIn(claims: (provider: AppProvider) => boolean, signIn: ClaimedSignIn): void
  /** Sets up another plugin on this client, after it was made (the drop-in's passkey script does). */
  use(plugin: ClientPlugin): void
}

/**
 * A claimed sign-in: given the provider, the caller's fields and `callbackUrl`, it signs in or
 * throws, and answers where to go; the client then refreshes the session and, unless `redirect:
 * false`, goes there.
 */
export type ClaimedSignIn = (provider: AppProvider, fields: Record<string, unknown> & { callbackUrl: string }) => Promise<{ url: string }>

/** A client plugin: `client[name]` is what `setup` answers; `waysIn`, what it draws in `<latchkey-signin>`. */
export interface ClientPlugin<Name extends string = string, Api = unknown> {
  readonly name: Name
  setup(kernel: ClientKernel): Api
  readonly waysIn?: readonly WayIn[]
}

/**
 * The built-in plugins' namespaces, each with its docs (each plugin's file adds its own, by
 * declaration merging): picked from here, a namespace shows its docs on hover.
 */
export interface KnownNamespaces {}

/** The namespaces a list of plugins adds, each under its name. */
export type PluginNamespaces<P extends readonly ClientPlugin[]> = Pick<KnownNamespaces, Extract<P[number]['name'], keyof KnownNamespaces>> & {
  readonly [Q in P[number] as Q['name'] extends keyof KnownNamespaces ? never : Q['name']]: ReturnType<Q['setup']>
}

declare const serverType: unique symbol
/** The server's type, carried by the `server` option and nothing at run time: `server: typeOf<typeof auth>()`. */
export interface ServerType<A> {
  readonly [serverType]?: A
}
/** Names the server's `auth` type for the `server` option; answers nothing at run time. */
export const typeOf = <A>(): ServerType<A> => ({})

/**
 * The session an `auth` object answers (the server's `SessionOf<typeof auth>`), read from the
 * shape of its `getSession` so the browser imports nothing of the server; `Session` without one.
 */
export type SessionFrom<A> = A extends { getSession(...args: any[]): Promise<infer S> } ? (Exclude<S, null> extends Session ? Exclude<S, null> : Session) : Session

/** The options with the plugins and the server's type (see `createAuthClient`). */
export interface AuthClientSetup<P extends readonly ClientPlugin[], A> extends AuthClientOptions {
  /** The client plugins: each adds its namespace (`mfa()` adds `client.mfa`). Only what is passed is in the app's bundle. */
  plugins?: P
  /** The server's `auth` type, for the session's own fields: `server: typeOf<typeof auth>()` (type only: nothing is sent or imported). */
  server?: ServerType<A>
}

/** `createAuthClient`'s answer: the core, typed with the server's session, and each plugin's namespace. */
export type AuthClientWith<P extends readonly ClientPlugin[] = [], A = unknown> = AuthClient<SessionFrom<A>> & PluginNamespaces<P>
