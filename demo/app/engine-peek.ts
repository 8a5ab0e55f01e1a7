/**
 * The session engine's broadcasts, for the demo's event log: every check with the server, not only
 * session changes, so a person can watch the worker work. (An app reads `client.state` instead.)
 */
import type { SessionState } from 'latchkey'
import { channelName } from '../../src/client/channel-name.js'

export function watchEngine(sessionUrl: string, onChange: (state: SessionState) => void): void {
  new BroadcastChannel(channelName(sessionUrl)).onmessage = (event: MessageEvent<SessionState>) => onChange(event.data)
}
