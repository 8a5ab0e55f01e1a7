/**
 * One latchkey server with the organizations and SCIM plugins, as its own process, for the test
 * that runs two of them on one PostgreSQL database (scim-processes.test.ts):
 *   node --import tsx test/plugins/scim-server.ts
 * Environment: DATABASE_URL, LATCHKEY_TEST_SCHEMA, AUTH_SECRET (the same for both). Credentials
 * sign in the stored user whose id is the username. stdout: {"listening":port} once.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { openDatabase } from 'latchkey/adapters/postgres'
import { toNodeHandler } from 'latchkey/node'
import { Latchkey } from 'latchkey/server'
import { organizations } from 'latchkey/plugins/organizations'
import { scim } from 'latchkey/plugins/scim'
import Credentials from '../../src/providers/credentials.js'

const url = process.env.DATABASE_URL
const schema = process.env.LATCHKEY_TEST_SCHEMA
if (!url || !schema || !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('scim-server: DATABASE_URL and LATCHKEY_TEST_SCHEMA (a plain identifier) are required')
const withSchema = new URL(url)
withSchema.searchParams.set('options', `-c search_path=${schema}`)

const plugins = [organizations(), scim()]
const adapter = await openDatabase(withSchema.toString(), { plugins })
const handler = Latchkey({
  adapter,
  plugins,
  origin: 'http://app.test',
  logger: { error: (e) => process.stderr.write(`error ${e.name}: ${e.message}\n`), warn: (w) => process.stderr.write(`warn ${w}\n`), debug: () => {} },
  providers: [Credentials({ credentials: { username: {} }, authorize: async ({ username }) => adapter.getUser(String(username)) })],
})
const server = createServer(toNodeHandler(handler))
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ listening: (server.address() as AddressInfo).port }) + '\n'))

process.on('SIGTERM', () => {
  server.close(() => void adapter.close().then(() => process.exit(0)))
})
