/** Device-bound sessions (W3C DBSC): registration, refresh and challenges under /dbsc. */
import type { Feature } from '../../kernel/feature.js'
import { getDbsc, postDbsc } from './routes.js'

export const dbsc: Feature = { name: 'dbsc', routes: { dbsc: { GET: getDbsc, POST: postDbsc, provider: true } } }
