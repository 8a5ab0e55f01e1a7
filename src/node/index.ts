/** latchkey/node: the node:http binding and the session in a node (Connect, Express) app. */
export { toNodeHandler, toRequest } from './handler.js'
export { getSession, withSession, type RequestWithSession } from './session.js'
export { requireSession, type SessionMiddleware } from './require-session.js'
export { requireFreshSession } from './require-fresh-session.js'
export { requirePermission } from './require-permission.js'
export { gracefulShutdown, type GracefulShutdown, type GracefulShutdownOptions } from './shutdown.js'
