/** latchkey/svelte: the session as a readable store (`$session` in Svelte 5 and 4), over an existing client. */
import { readable, type Readable } from 'svelte/store'
import type { AuthClient, AuthStatus, Session } from '../client/index.js'
// The elements in markup: an app that imports the store gets typed <latchkey-signin> and the rest.
export type { LatchkeySvelteAttributes } from '../jsx/svelte.js'

export interface SessionValue {
  data: Session | null
  status: AuthStatus
}

export function sessionStore(client: AuthClient): Readable<SessionValue> {
  const now = (): SessionValue => ({ data: client.session ?? null, status: client.status })
  return readable(now(), (set) => {
    set(now())
    return client.onSessionChange(() => set(now()))
  })
}
