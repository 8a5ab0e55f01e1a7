/**
 * One latchkey server with a phone provider, as its own process, for the test that runs two of
 * them on one PostgreSQL database (phone-processes.test.ts):
 *   node --import tsx test/plugins/phone-server.ts
 * Environment: DATABASE_URL, LATCHKEY_TEST_SCHEMA (first on every connection's search_path),
 * AUTH_SECRET (the same for both). stdout carries one JSON object a line: {"listening":port} once,
 * then {"to":number,"text":message} per text message.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { openDatabase } from 'latchkey/adapters/postgres'
import { toNodeHandler } from 'latchkey/node'
import { Latchkey } from 'latchkey/server'
import { Phone } from 'latchkey/plugins/phone'

const url = process.env.DATABASE_URL
const schema = process.env.LATCHKEY_TEST_SCHEMA
if (!url || !schema || !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('phone-server: DATABASE_URL and LATCHKEY_TEST_SCHEMA (a plain identifier) are required')
const withSchema = new URL(url)
withSchema.searchParams.set('options', `-c search_path=${schema}`)

const say = (message: object) => process.stdout.write(JSON.stringify(message) + '\n')
const adapter = await openDatabase(withSchema.toString())
const handler = Latchkey({
  adapter,
  origin: 'http://app.test',
  logger: { error: (e) => process.stderr.write(`error ${e.name}: ${e.message}\n`), warn: (w) => process.stderr.write(`warn ${w}\n`), debug: () => {} },
  providers: [Phone({ sendSms: async (to, text) => void say({ to, text }) })],
})
const server = createServer(toNodeHandler(handler))
server.listen(0, '127.0.0.1', () => say({ listening: (server.address() as AddressInfo).port }))

process.on('SIGTERM', () => {
  server.close(() => void adapter.close().then(() => process.exit(0)))
})
