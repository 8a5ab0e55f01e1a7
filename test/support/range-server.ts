/**
 * A local stand-in for the Pwned Passwords range API (GET /range/XXXXX), so no test calls the
 * internet. It knows a few breached passwords, answers each prefix with their uppercase SHA-1
 * suffixes and some unrelated ones, adds count-0 padding lines when asked with `Add-Padding: true`,
 * records every request, and can be told to fail: a 500, an answer that never comes, or garbage.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type RangeMode = 'ok' | 'error' | 'hang' | 'garbage'

export interface RangeServerOptions {
  /** Breached passwords and how often each was seen (the count each answer line carries). */
  breached?: Record<string, number>
  /** Passwords whose suffix is listed only as a padding line (count 0), when padding is asked for. */
  paddedOnly?: string[]
  /** Write suffixes in lower case (the real API writes upper case). */
  lowercase?: boolean
}

export interface RangeRequest {
  path: string
  padding: boolean
}

export interface RangeServer {
  /** `http://127.0.0.1:<port>/range/`, the endpoint to configure. */
  endpoint: string
  /** Every request, in order. */
  requests: RangeRequest[]
  /** How the next requests are answered. */
  mode: RangeMode
  close(): Promise<void>
}

export function sha1Upper(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase()
}

function randomSuffix(): string {
  return randomBytes(18).toString('hex').slice(0, 35).toUpperCase()
}

export async function startRangeServer(options: RangeServerOptions = {}): Promise<RangeServer> {
  const breached = Object.entries(options.breached ?? {}).map(([password, count]) => ({ hash: sha1Upper(password), count }))
  const paddedOnly = (options.paddedOnly ?? []).map(sha1Upper)
  const state: RangeServer = { endpoint: '', requests: [], mode: 'ok', close: async () => {} }

  const server = createServer((request, response) => {
    const path = request.url ?? ''
    const padding = String(request.headers['add-padding']).toLowerCase() === 'true'
    state.requests.push({ path, padding })
    if (state.mode === 'hang') return
    if (state.mode === 'error') {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error')
      return
    }
    if (state.mode === 'garbage') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Service temporarily down for maintenance</body></html>')
      return
    }
    const match = /^\/range\/([0-9A-Fa-f]{5})$/.exec(path)
    if (!match) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('The hash prefix was not in a valid format')
      return
    }
    const prefix = match[1].toUpperCase()
    const lines: string[] = []
    for (const { hash, count } of breached) if (hash.startsWith(prefix)) lines.push(`${hash.slice(5)}:${count}`)
    // Unrelated suffixes that share the prefix, as every real answer has hundreds of.
    for (let i = 0; i < 20; i++) lines.push(`${randomSuffix()}:${1 + i * 7}`)
    if (padding) {
      for (const hash of paddedOnly) if (hash.startsWith(prefix)) lines.push(`${hash.slice(5)}:0`)
      for (let i = 0; i < 30; i++) lines.push(`${randomSuffix()}:0`)
    }
    lines.sort()
    const body = lines.map((line) => (options.lowercase ? line.toLowerCase() : line)).join('\r\n')
    response.writeHead(200, { 'content-type': 'text/plain' }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  state.endpoint = `http://127.0.0.1:${port}/range/`
  state.close = () =>
    new Promise<void>((resolve) => {
      // Hanging requests hold their sockets open; end them so close() returns.
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return state
}
