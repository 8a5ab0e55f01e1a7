/** Plain node:http: latchkey's node binding, and a notes API that reads the session with getSession. */
import { createServer, type Server } from 'node:http'
import { getSession, toNodeHandler } from 'latchkey/node'
import { Latchkey } from 'latchkey/server'
import { exampleConfig } from '../auth-config.js'

/** `auth`: the instance main.ts also hands to gracefulShutdown. */
export function createApp(auth = Latchkey(exampleConfig())): Server {
  const notes = new Map<string, string[]>()
  const latchkey = toNodeHandler(auth)

  return createServer(async (req, res) => {
    if (req.url?.startsWith('/auth/')) return latchkey(req, res)
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body))
    }
    if (req.url !== '/api/notes') return json(404, { error: 'Not found' })
    // Passing `res` lets a due session be extended on this very response.
    const session = await getSession(auth, req, res)
    if (!session) return json(401, { error: 'Unauthorized' })
    const mine = notes.get(session.user.email!) ?? []
    if (req.method === 'GET') return json(200, mine)
    let text = ''
    for await (const chunk of req) text += chunk
    let note: unknown
    try {
      note = (JSON.parse(text) as { text?: unknown }).text
    } catch {
      note = undefined
    }
    if (typeof note !== 'string' || !note.trim()) return json(400, { error: 'Expected { "text": "…" }' })
    notes.set(session.user.email!, [...mine, note.trim()])
    json(201, notes.get(session.user.email!))
  })
}
