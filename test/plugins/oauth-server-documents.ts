/**
 * An https server on 127.0.0.1 serving client ID metadata documents (and worse) for the
 * authorization server under test, with a self-signed certificate made once per run by openssl:
 * the server trusts it through `clientIdMetadataDocuments.unsafeTesting.ca`. Each path answers as
 * its handler says; `hits` counts the requests each path got.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type DocumentHandler = (request: IncomingMessage, response: ServerResponse) => void

let made: { key: string; cert: string } | undefined

/** A key and self-signed certificate for localhost and 127.0.0.1. */
export function testCertificate(): { key: string; cert: string } {
  if (made) return made
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-cimd-'))
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' })
    made = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return made
}

export interface DocumentServer {
  /** `https://127.0.0.1:<port><path>` */
  url(path: string): string
  port: number
  ca: string
  routes: Map<string, DocumentHandler>
  hits: Map<string, number>
  close(): Promise<void>
}

export async function documentServer(): Promise<DocumentServer> {
  const { key, cert } = testCertificate()
  const routes = new Map<string, DocumentHandler>()
  const hits = new Map<string, number>()
  const open = new Set<{ destroy(): unknown }>()
  const server: Server = createServer({ key, cert }, (request, response) => {
    const path = new URL(request.url ?? '/', 'https://x').pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const handler = routes.get(path)
    if (handler) handler(request, response)
    else response.writeHead(404).end()
  })
  server.on('connection', (socket) => {
    open.add(socket)
    socket.on('close', () => open.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    port,
    ca: cert,
    routes,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** A handler answering `body` as JSON with the given headers. */
export const serveJson =
  (body: unknown, headers: Record<string, string> = {}): DocumentHandler =>
  (_, response) => {
    response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(typeof body === 'string' ? body : JSON.stringify(body))
  }
