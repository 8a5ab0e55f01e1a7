/**
 * One latchkey server with the organizations plugin, as its own process, for the test that runs
 * two of them on one PostgreSQL database (organizations-processes.test.ts):
 *   node --import tsx test/plugins/organizations-server.ts
 * Environment: DATABASE_URL, LATCHKEY_TEST_SCHEMA (first on every connection's search_path),
 * AUTH_SECRET (the same for both). Credentials sign in the stored user whose id is the username.
 * stdout carries one JSON object a line: {"listening":port} once, then {"to":address,"text":body} per email.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { openDatabase } from 'latchkey/adapters/postgres'
import { toNodeHandler } from 'latchkey/node'
import { Latchkey } from 'latchkey/server'
import { organizations } from 'latchkey/plugins/organizations'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'

const url = process.env.DATABASE_URL
const schema = process.env.LATCHKEY_TEST_SCHEMA
if (!url || !schema || !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('organizations-server: DATABASE_URL and LATCHKEY_TEST_SCHEMA (a plain identifier) are required')
const withSchema = new URL(url)
withSchema.searchParams.set('options', `-c search_path=${schema}`)

const say = (message: object) => process.stdout.write(JSON.stringify(message) + '\n')
const orgs = organizations()
const adapter = await openDatabase(withSchema.toString(), { plugins: [orgs] })
const handler = Latchkey({
  adapter,
  plugins: [orgs],
  origin: 'http://app.test',
  logger: { error: (e) => process.stderr.write(`error ${e.name}: ${e.message}\n`), warn: (w) => process.stderr.write(`warn ${w}\n`), debug: () => {} },
  providers: [
    Credentials({ credentials: { username: {} }, authorize: async ({ username }) => adapter.getUser(String(username)) }),
    Email({ sendVerificationRequest: async () => {}, sendMail: async ({ to, text }) => void say({ to, text }) }),
  ],
})
const server = createServer(toNodeHandler(handler))
server.listen(0, '127.0.0.1', () => say({ listening: (server.address() as AddressInfo).port }))

process.on('SIGTERM', () => {
  server.close(() => void adapter.close().then(() => process.exit(0)))
})
