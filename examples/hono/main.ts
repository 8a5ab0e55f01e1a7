/** `npx tsx examples/hono/main.ts`: the example on http://localhost:3000, through @hono/node-server; SIGTERM drains it first (docs/deployment.md). */
import type { Server } from 'node:http'
import { serve } from '@hono/node-server'
import { gracefulShutdown } from 'latchkey/node'
import { Latchkey } from 'latchkey/server'
import { exampleConfig } from '../auth-config.js'
import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)
const auth = Latchkey(exampleConfig())
// serve() answers over node:http unless it is given an HTTP/2 createServer.
const server = serve({ fetch: createApp(auth).fetch, port }, () => console.log(`Hono example on http://localhost:${port}`)) as Server
gracefulShutdown(server, auth)
