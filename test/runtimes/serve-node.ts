/** Node: the app through latchkey/node's binding. `node serve-node.js <sink url>` prints `{ "port": n }`. */
import { createServer } from 'node:http'
import { toNodeHandler } from 'latchkey/node'
import app from './app.js'

// PGlite's module (pglite-database.js) is loaded on the first /pglite request only.
const env = { SINK_URL: process.argv[2]!, openPGlite: async () => (await import('./pglite-database.js')).openPGlite() }
const server = createServer(toNodeHandler((request) => app.fetch(request, env)))
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as { port: number }).port })))
