/** `npx tsx examples/hono/main.ts`: the example on http://localhost:3000, through @hono/node-server. */
import { serve } from '@hono/node-server'
import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)
serve({ fetch: createApp().fetch, port }, () => console.log(`Hono example on http://localhost:${port}`))
