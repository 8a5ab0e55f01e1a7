/** The signed-in user's sessions, one per device: /sessions. */
import type { Feature } from '../../kernel/feature.js'
import { getSessions, postSessions } from './routes.js'

export const sessions: Feature = { name: 'sessions', routes: { sessions: { GET: getSessions, POST: postSessions } } }
