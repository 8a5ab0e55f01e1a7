/**
 * What every bench server here serves besides its auth routes: the one page shell, the pages'
 * bundles (immutable, as an app's hashed assets are, so a reload takes them from the cache) and
 * latchkey's built worker. Answers false when the path is none of those.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { shell } from './shell.js'
import type { Bundles, ClientPage } from './bundles.js'

const dist = join(import.meta.dirname, '../../dist')

export async function serveApp(req: IncomingMessage, res: ServerResponse, bundles: Bundles): Promise<boolean> {
  const path = new URL(req.url ?? '/', 'http://x').pathname
  const script = bundles.files.get(path)
  if (script !== undefined) {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' })
    res.end(script)
    return true
  }
  if (path === '/latchkey-sw.js') {
    // A worker script is checked for updates without the HTTP cache; no-cache says so anyway.
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' })
    res.end(await readFile(join(dist, 'latchkey-sw.js')))
    return true
  }
  const page = /^\/(latchkey|next-auth|better-auth)\/app(?:\/.*)?$/.exec(path)
  if (page || path === '/blank') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' })
    res.end(page ? shell(bundles.entries.get(page[1] as ClientPage)!) : '<!doctype html><title>blank</title>')
    return true
  }
  return false
}
