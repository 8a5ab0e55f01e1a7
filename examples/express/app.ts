/** Express: latchkey mounted at /auth before the body parser, and a notes API behind requireSession. */
import express from 'express'
import { requireSession, toNodeHandler } from 'latchkey/node'
import { Latchkey } from 'latchkey/server'
import { exampleConfig } from '../auth-config.js'

/** `auth`: the instance main.ts also hands to gracefulShutdown. */
export function createApp(auth = Latchkey(exampleConfig())): express.Express {
  const notes = new Map<string, string[]>()
  const signedIn = requireSession(auth)

  const app = express()
  // latchkey reads its own request bodies, so it comes before express.json().
  app.use('/auth', toNodeHandler(auth))
  app.use(express.json())
  app.get('/api/notes', signedIn, (req, res) => {
    const session = signedIn.session(req)
    res.json(notes.get(session.user.email!) ?? [])
  })
  app.post('/api/notes', signedIn, (req, res) => {
    const session = signedIn.session(req)
    const text = typeof req.body?.text === 'string' ? req.body.text.trim() : ''
    if (!text) return void res.status(400).json({ error: 'Expected { "text": "…" }' })
    const list = notes.get(session.user.email!) ?? []
    list.push(text)
    notes.set(session.user.email!, list)
    res.status(201).json(list)
  })
  // Express's default error page shows a stack trace outside production: answer JSON instead.
  app.use((error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = error.status && error.status < 500 ? error.status : 500
    res.status(status).json({ error: status < 500 ? 'Bad request' : 'Server error' })
  })
  return app
}
