/** The signed-in user's sessions, one per device: /sessions. */
import type { LatchkeyPlugin } from '../../kernel/plugin.js'
import { getSessions, postSessions } from './routes.js'

export const sessions: LatchkeyPlugin = { id: 'sessions', routes: { sessions: { GET: getSessions, POST: postSessions } } }
