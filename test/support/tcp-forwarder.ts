/**
 * The one address of "the primary", as a virtual IP or Patroni's HAProxy gives it: a TCP forwarder
 * on 127.0.0.1, its own process (test/support/cluster.ts starts it), that the test re-points from
 * one PostgreSQL server to another:
 *   node --import tsx test/support/tcp-forwarder.ts <target port>
 * stdout: `listening <port>` once. stdin: `point <port>` sends new connections to that port and
 * cuts the open ones that go elsewhere (as a moved address does), then answers `pointed <port>`.
 * A connection whose target refuses is closed at once: the client sees its connection end.
 */
import { connect, createServer, type Socket } from 'node:net'
import { createInterface } from 'node:readline'

let target = Number(process.argv[2])
if (!Number.isInteger(target) || target <= 0) throw new Error(`tcp-forwarder: expected a target port, got ${process.argv[2]}`)
const open = new Set<{ client: Socket; upstream: Socket; target: number }>()

const server = createServer((client) => {
  const upstream = connect(target, '127.0.0.1')
  const pair = { client, upstream, target }
  open.add(pair)
  const end = () => {
    open.delete(pair)
    client.destroy()
    upstream.destroy()
  }
  for (const socket of [client, upstream]) {
    socket.setNoDelay(true)
    socket.on('error', end)
    socket.on('close', end)
  }
  client.pipe(upstream)
  upstream.pipe(client)
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`))

createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, port] = line.trim().split(/\s+/)
  if (command !== 'point' || !Number(port)) return
  target = Number(port)
  for (const pair of open) {
    if (pair.target === target) continue
    pair.client.destroy()
    pair.upstream.destroy()
  }
  process.stdout.write(`pointed ${target}\n`)
})
// The test's end is this process's end.
process.stdin.on('end', () => process.exit(0))
