/**
 * The demo's own API: a few notes per signed-in user, behind `requireSession`, as an app's
 * `/api/...` routes would be. Kept in memory: they go with a restart.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { requireSession } from '../src/node/index.js'
import type { LatchkeyHandler } from '../src/server/index.js'

const maxNotes = 20
const maxLength = 280

export function createNotesApi(auth: LatchkeyHandler) {
  const signedIn = requireSession(auth)
  const notes = new Map<string, string[]>()
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body))

  return (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    signedIn(req, res, async () => {
      const owner = signedIn.session(req).user.email ?? signedIn.session(req).user.id ?? ''
      const mine = notes.get(owner) ?? []
      if (req.method === 'GET') return json(res, 200, { notes: mine })
      if (req.method !== 'POST') return json(res, 405, { error: 'Expected GET or POST' })
      let body = ''
      for await (const chunk of req) {
        body += chunk
        if (body.length > 4096) return json(res, 413, { error: 'Expected a short note' })
      }
      let text: unknown
      try {
        text = (JSON.parse(body) as { text?: unknown }).text
      } catch {
        text = undefined
      }
      if (typeof text !== 'string' || !text.trim() || text.length > maxLength) return json(res, 400, { error: `Expected { "text": "…" } of 1 to ${maxLength} characters` })
      notes.set(owner, [text.trim(), ...mine].slice(0, maxNotes))
      json(res, 201, { notes: notes.get(owner) })
    })
}
