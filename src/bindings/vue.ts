/** latchkey/vue: the session as a composable with reactive `data` and `status`, over an existing client. */
import { getCurrentScope, onScopeDispose, shallowRef, type ShallowRef } from 'vue'
import type { AuthClient, AuthStatus, Session } from '../client/index.js'
// The elements in templates: an app that imports the composable gets typed <latchkey-signin> and the rest.
export type { LatchkeyVueElement, LatchkeyVueProps } from '../jsx/vue.js'

export interface UseSession {
  data: ShallowRef<Session | null>
  status: ShallowRef<AuthStatus>
  update: (data?: unknown) => Promise<Session | null>
}

export function useSession(client: AuthClient): UseSession {
  const data = shallowRef(client.session ?? null)
  const status = shallowRef(client.status)
  const off = client.onSessionChange(() => {
    data.value = client.session ?? null
    status.value = client.status
  })
  // In a component or effect scope, the listener goes with it.
  if (getCurrentScope()) onScopeDispose(off)
  return { data, status, update: client.update }
}
