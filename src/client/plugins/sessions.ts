/** `sessions()`: the signed-in user's sessions, one per device (database strategy). */
import type { ClientPlugin } from '../plugin.js'
import type { SessionInfo } from '../types.js'
import { listed } from './listed.js'

/** `client.sessions`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface SessionsClient {
  list(): Promise<SessionInfo[]>
  revoke(id: string): Promise<SessionInfo[]>
  revokeOthers(): Promise<SessionInfo[]>
}

/** The plugin that adds `client.sessions`. */
export const sessions = (): ClientPlugin<'sessions', SessionsClient> => ({
  name: 'sessions',
  setup(kernel) {
    const { list, act } = listed<SessionInfo>(kernel, '/sessions')
    return { list, revoke: (id) => act({ action: 'revoke', id }), revokeOthers: () => act({ action: 'revoke-others' }) }
  },
})

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.sessions`: the signed-in user's sessions, one per device. Ending another needs a recent
     * sign-in (`SessionNotFresh` otherwise); ending this one signs out here, in every tab. Signing
     * out everywhere: `revokeOthers()`, then `signOut()`.
     */
    readonly sessions: SessionsClient
  }
}
