/** latchkey/vue: the session as a composable with reactive `data` and `status`, over an existing client. */
import { getCurrentScope, onScopeDispose, shallowRef, type ShallowRef } from 'vue'
import type { AuthClient, AuthStatus, Session } from '../client/index.js'
// The elements in templates: an app that imports the composable gets typed <latchkey-signin> and the rest.
export type { LatchkeyVueElement, LatchkeyVueProps } from '../jsx/vue.js'

/** `S`: the server's session type, where the client was given it (`server: typeOf<typeof auth>()`). */
export interface UseSession<S extends Session = Session> {
  data: ShallowRef<S | null>
  status: ShallowRef<AuthStatus>
  update: (data?: unknown) => Promise<S | null>
}

export function useSession<S extends Session = Session>(client: AuthClient<S>): UseSession<S> {
  const data = shallowRef(client.session ?? null) as ShallowRef<S | null>
  const status = shallowRef(client.status)
  const off = client.onSessionChange(() => {
    data.value = client.session ?? null
    status.value = client.status
  })
  // In a component or effect scope, the listener goes with it.
  if (getCurrentScope()) onScopeDispose(off)
  return { data, status, update: client.update }
}
