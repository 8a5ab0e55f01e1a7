/**
 * latchkey/react: the session and providers as React hooks over an existing client. No provider
 * component: the client is the store. On the server (SSR) the session reads as loading.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import type { AppProvider } from '../core/types.js'
import type { AuthClient, AuthStatus, Session } from '../client/index.js'
// The elements in JSX: an app that imports the hooks gets typed <latchkey-signin> and the rest.
export type { LatchkeyReactProps } from '../jsx/react.js'

/** `S`: the server's session type, where the client was given it (`server: typeOf<typeof auth>()`). */
export interface UseSession<S extends Session = Session> {
  data: S | null
  status: AuthStatus
  /** POST /session through the `session`/`jwt` callbacks; every tab hears the result. */
  update: (data?: unknown) => Promise<S | null>
}

/** One subscribe function per client, so React does not resubscribe on every render. */
const subscribers = new WeakMap<AuthClient, (onChange: () => void) => () => void>()
const subscribeTo = (client: AuthClient | undefined) => {
  if (!client) return none
  let subscribe = subscribers.get(client)
  if (!subscribe) subscribers.set(client, (subscribe = (onChange) => client.onSessionChange(onChange)))
  return subscribe
}
const none = () => () => {}
const signedOutUpdate = async (): Promise<null> => null

/**
 * `{ data, status, update }`, re-rendered on every session change in any tab. Rendered on the
 * server it is `loading` (and the hydration matches); on the server `client` may be undefined,
 * since a client needs a browser: `typeof window === 'undefined' ? undefined : createAuthClient()`.
 */
export function useSession<S extends Session = Session>(client: AuthClient<S> | undefined): UseSession<S> {
  // The snapshot is the engine's state object, the same until it changes: `client.session` is a
  // new object on each read while stale, which React would take for a change on every render.
  const state = useSyncExternalStore(subscribeTo(client), () => client?.state, () => undefined)
  return useMemo(
    () => ({ data: (state && client?.session) ?? null, status: state && client ? client.status : 'loading', update: client?.update ?? signedOutUpdate }),
    [client, state],
  )
}

/** The server's providers (`GET /providers`, asked once per client); null until they arrive. */
export function useProviders(client: AuthClient | undefined): Record<string, AppProvider> | null {
  const [providers, setProviders] = useState<Record<string, AppProvider> | null>(null)
  useEffect(() => {
    let live = true
    client?.getProviders().then((p) => live && setProviders(p), () => {})
    return () => void (live = false)
  }, [client])
  return providers
}
