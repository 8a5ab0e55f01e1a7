/**
 * Express and Connect strip the mount path from `req.url` (`app.use('/auth', ...)` hands on
 * `/session`) and keep the whole request target in `req.originalUrl`. That is the app's own
 * routing state, set by the framework from the request line, not a header a client chooses; so
 * latchkey reads its path from it. X-Forwarded-* is never read here.
 */
import type { IncomingMessage } from 'node:http'
import type { NodeRequestLike } from './node-like.js'
import type { MountTarget } from '../server/latchkey.js'

export interface Mount {
  /** The request as latchkey reads it: `req` with its full path. */
  req: NodeRequestLike
  /** Why latchkey can answer nothing under this mount, or null. */
  misplaced: string | null
}

/** The request with the path the framework stripped put back, and whether that mount fits `basePath`. */
export function readMount(req: IncomingMessage, target: MountTarget | undefined): Mount {
  const original = (req as { originalUrl?: unknown }).originalUrl
  if (typeof original !== 'string' || original === req.url || !original.startsWith('/')) return { req, misplaced: null }
  const view: NodeRequestLike = {
    method: req.method,
    url: original,
    headers: req.headers,
    socket: req.socket,
    [Symbol.asyncIterator]: () => req[Symbol.asyncIterator](),
  }
  return { req: view, misplaced: target ? misplaced(pathOf(original), pathOf(req.url ?? '/'), target.basePath) : null }
}

/**
 * A mount that neither holds basePath nor sits inside it can reach no route: `app.use('/api/auth', ...)`
 * with basePath '/auth'. A wider mount (`app.use('/api', ...)` with basePath '/api/auth') is fine.
 */
function misplaced(full: string, rest: string, basePath: string): string | null {
  if (under(full, basePath)) return null
  const mount = rest === '/' ? full.replace(/\/+$/, '') : full.endsWith(rest) ? full.slice(0, full.length - rest.length) : null
  if (mount === null || mount === '' || under(basePath, mount)) return null
  return (
    `latchkey is mounted at ${mount} but its basePath is ${basePath}, so it answers nothing there: ` +
    `pass basePath: '${mount}' to Latchkey(config), or mount it at ${basePath} (app.use('${basePath}', toNodeHandler(auth)))`
  )
}

function under(path: string, base: string): boolean {
  return path === base || path.startsWith(base + '/')
}

function pathOf(url: string): string {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}
