/**
 * The node forms `latchkey/server` still exports for one minor version; `latchkey/node` has them
 * with node's own types. Typed here with the parts of node's objects they use, so the types of
 * `latchkey/server` need no @types/node; none of them imports a `node:` module.
 */
import type { Session } from '../../core/types.js'
import { toNodeHandler as nodeHandler, toRequest as nodeRequest } from '../../node/handler.js'
import type { Handler } from '../latchkey.js'
import type { NodeRequestLike } from './node-like.js'
import { requireFreshSession as freshGuard } from './require-fresh-session.js'
import { requireSession as sessionGuard, type RequestWithSession as WithSession } from './require-session.js'

/** node's ServerResponse as the binding writes it. */
export interface NodeBindingResponse {
  readonly headersSent: boolean
  writeHead(status: number, headers: Record<string, string | string[]>): unknown
  end(body?: string | Uint8Array): unknown
}

/** @deprecated Import it from `latchkey/node`; `latchkey/server` drops it in the next minor version. */
export const toNodeHandler = nodeHandler as unknown as (handler: Handler) => (req: NodeRequestLike, res: NodeBindingResponse) => Promise<void>

/** @deprecated Import it from `latchkey/node`; `latchkey/server` drops it in the next minor version. */
export const toRequest = nodeRequest as unknown as (req: NodeRequestLike) => Request

/** @deprecated Import it from `latchkey/node`; `latchkey/server` drops it in the next minor version. */
export const requireSession = sessionGuard

/** @deprecated Import it from `latchkey/node`; `latchkey/server` drops it in the next minor version. */
export const requireFreshSession = freshGuard

/** @deprecated Import it from `latchkey/node`; `latchkey/server` drops it in the next minor version. */
export type RequestWithSession<S extends Session = Session> = WithSession<S>
