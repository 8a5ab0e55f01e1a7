/**
 * What a feature brings to a `Latchkey` instance: routes under basePath, and, for a way to sign
 * in, the hooks the shared routes (/signin, /callback, the sign-in page, the last-way rule, the
 * first proof of an address) call for a provider of its kind. Adding a way to sign in is a folder
 * with one of these and a line in features/index.ts; nothing outside it tests a provider's type.
 */
import type { AdapterUser, AppProvider, AuthConfig } from '../../core/types.js'
import type { Body } from './body.js'
import type { ResolvedConfig, ResolvedProvider } from './config.js'
import type { Context } from './context.js'
import type { Reply } from './respond.js'
import type { AdapterMethod } from './adapter-methods.js'

export type Route = (ctx: Context, providerId: string | undefined) => Promise<Reply>

/** One path segment under basePath and what answers it. */
export interface Action {
  GET?: Route
  POST?: Route
  /** Takes a provider id as the next path segment. */
  provider?: boolean
  /** Failures send the browser to a page rather than answering JSON. */
  flow?: boolean
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
   * Its form on the built-in sign-in page, given the hidden CSRF and callback inputs; null leaves
   * the provider off the page. Absent: a button that posts to /signin/:provider.
   */
  pageForm?(provider: ResolvedProvider, app: AppProvider, hidden: string): string | null
  /** Origins the page's forms may reach through the provider (CSP form-action). */
  formTargets?(provider: ResolvedProvider): string[]
  /** True when the user can sign in with this provider whatever account or passkey is removed (the last-way rule). */
  keepsWayIn?(ctx: Context, provider: ResolvedProvider, user: AdapterUser, signInProvider: string | undefined): boolean
  /**
   * This method makes users whose address nobody vouched for (passkeys): the first proof of the
   * address calls it to remove what it made before (sign-in/first-proof.ts).
   */
  onAddressProven?(ctx: Context, user: AdapterUser): Promise<{ removed: number }>
}

export interface Feature {
  name: string
  /** Runs once as an instance is built: what the feature adds to the resolved configuration. */
  configure?(config: AuthConfig, resolved: ResolvedConfig): void
  /** Routes under basePath, by their first path segment. */
  routes?: Record<string, Action>
  method?: SignInMethod
}

/** The sign-in method that runs this provider's kind; none where the instance has no feature for it. */
export function methodOf(config: Pick<ResolvedConfig, 'methods'>, provider: { type: string }): SignInMethod | undefined {
  return config.methods.get(provider.type)
}
