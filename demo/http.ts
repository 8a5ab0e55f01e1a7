/**
 * The demo's web server: latchkey under /auth, the app's notes API at /api/notes (behind
 * requireSession), a provider API call at /api/idp-profile (with the user's Demo IdP token), the outbox page, a little JSON about the demo for
 * the app, and the built browser files (the app at /, the drop-in page, /latchkey.iife.js, and
 * the session worker at /latchkey-sw.js so that its scope is the whole origin).
 */
import { createServer, type ServerResponse } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import { toNodeHandler } from '../src/node/index.js'
import type { LatchkeyHandler } from '../src/server/index.js'
import type { Outbox } from './outbox.js'
import { createNotesApi } from './notes.js'
import { createProviderApi } from './provider-api.js'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
}

export interface DemoInfo {
  idp: { issuer: string; users: { email: string; password: string; name: string }[] }
  account: { username: string; password: string }
  database: string
  email: string
}

export function createWebServer(options: { auth: LatchkeyHandler; buildDir: string; outbox: Outbox; info: () => DemoInfo }) {
  const auth = toNodeHandler(options.auth)
  const notes = createNotesApi(options.auth)
  const idpProfile = createProviderApi(options.auth, () => options.info().idp.issuer)
  const send = (res: ServerResponse, status: number, body: string | Buffer, type: string, cache = 'no-cache') =>
    res.writeHead(status, { 'content-type': type, 'cache-control': cache }).end(body)

  return createServer(async (req, res) => {
    const { pathname: path, searchParams } = new URL(req.url ?? '/', 'http://demo')
    if (path === '/auth' || path.startsWith('/auth/')) return auth(req, res)
    if (path === '/api/notes') return notes(req, res)
    if (path === '/api/idp-profile') return idpProfile(req, res)
    if (path === '/outbox' && searchParams.has('count')) return send(res, 200, String(options.outbox.count()), 'text/plain')
    if (path === '/outbox') return send(res, 200, options.outbox.page(), types['.html'])
    if (path === '/demo.json') return send(res, 200, JSON.stringify(options.info()), types['.json'])
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed', 'text/plain')
    const file = normalize(join(options.buildDir, path === '/' ? 'index.html' : decodeURIComponent(path)))
    if (!file.startsWith(options.buildDir + sep) || file.endsWith('stamp.txt')) return send(res, 404, 'Not found', 'text/plain')
    try {
      const body = await readFile(file)
      // Vite's hashed assets never change; everything else is checked on each load.
      const cache = path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'
      return send(res, 200, body, types[extname(file)] ?? 'application/octet-stream', cache)
    } catch {
      return send(res, 404, 'Not found', 'text/plain')
    }
  })
}
