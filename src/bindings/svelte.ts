/** latchkey/svelte: the session as a readable store (`$session` in Svelte 5 and 4), over an existing client. */
import { readable, type Readable } from 'svelte/store'
import type { AuthClient, AuthStatus, Session } from '../client/index.js'
// The elements in markup: an app that imports the store gets typed <latchkey-signin> and the rest.
export type { LatchkeySvelteAttributes } from '../jsx/svelte.js'

/** `S`: the server's session type, where the client was given it (`server: typeOf<typeof auth>()`). */
export interface SessionValue<S extends Session = Session> {
  data: S | null
  status: AuthStatus
}

export function sessionStore<S extends Session = Session>(client: AuthClient<S>): Readable<SessionValue<S>> {
  const now = (): SessionValue<S> => ({ data: client.session ?? null, status: client.status })
  return readable(now(), (set) => {
    set(now())
    return client.onSessionChange(() => set(now()))
  })
}
