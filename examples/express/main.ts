/** `npx tsx examples/express/main.ts`: the example on http://localhost:3000; SIGTERM drains it first (docs/deployment.md). */
import { gracefulShutdown } from 'latchkey/node'
import { Latchkey } from 'latchkey/server'
import { exampleConfig } from '../auth-config.js'
import { createApp } from './app.js'

const port = Number(process.env.PORT ?? 3000)
const auth = Latchkey(exampleConfig())
const server = createApp(auth).listen(port, () => console.log(`Express example on http://localhost:${port}`))
gracefulShutdown(server, auth)
