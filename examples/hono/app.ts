/** Hono: latchkey's fetch handler under /auth, and a notes API behind withSession. */
import { Hono } from 'hono'
import { Latchkey, withSession } from 'latchkey/server'
import { exampleConfig } from '../auth-config.js'

/** `auth`: the instance main.ts also hands to gracefulShutdown. */
export function createApp(auth = Latchkey(exampleConfig())): Hono {
  const notes = new Map<string, string[]>()

  const listNotes = withSession(auth, (_request, session) => Response.json(notes.get(session.user.email!) ?? []))
  const addNote = withSession(auth, async (request, session) => {
    const body = (await request.json().catch(() => null)) as { text?: unknown } | null
    const text = typeof body?.text === 'string' ? body.text.trim() : ''
    if (!text) return Response.json({ error: 'Expected { "text": "…" }' }, { status: 400 })
    const list = [...(notes.get(session.user.email!) ?? []), text]
    notes.set(session.user.email!, list)
    return Response.json(list, { status: 201 })
  })

  const app = new Hono()
  app.all('/auth/*', (c) => auth(c.req.raw))
  app.get('/api/notes', (c) => listNotes(c.req.raw))
  app.post('/api/notes', (c) => addNote(c.req.raw))
  return app
}
