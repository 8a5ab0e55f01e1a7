/** latchkey/node: the node:http binding and the session in a node (Connect, Express) app. */
export { toNodeHandler, toRequest } from './handler.js'
export { getSession, requireFreshSession, requireSession, withSession, type RequestWithSession, type SessionMiddleware } from './session.js'
