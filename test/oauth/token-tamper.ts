/**
 * A token endpoint in front of the Demo IdP's that forwards the code exchange, then rewrites
 * the ID token's claims and signs it again: with the IdP's own key (so only the claim checks
 * can catch it) or with a foreign one (so only the signature check can).
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose'

export interface TamperProxy {
  /** Its token endpoint. */
  tokenUrl: string
  /** What to do to the next ID tokens; undefined passes them through untouched. */
  rewrite?: (claims: JWTPayload) => JWTPayload
  /** Sign with this private JWK instead of the IdP's. */
  foreignKey?: JWK
  close(): Promise<void>
}

export async function startTamperProxy(idpTokenUrl: string, idpKey: JWK): Promise<TamperProxy> {
  const proxy: TamperProxy = { tokenUrl: '', close: async () => {} }
  const server = createServer(async (req, res) => {
    try {
      const body = await read(req)
      const headers: Record<string, string> = { 'content-type': String(req.headers['content-type'] ?? 'application/x-www-form-urlencoded') }
      if (req.headers.authorization) headers.authorization = req.headers.authorization
      const upstream = await fetch(idpTokenUrl, { method: 'POST', headers, body })
      const json = (await upstream.json()) as Record<string, unknown>
      if (upstream.ok && typeof json.id_token === 'string' && (proxy.rewrite || proxy.foreignKey)) {
        const claims = (proxy.rewrite ?? ((c) => c))({ ...decodeJwt(json.id_token) })
        const key = proxy.foreignKey ?? idpKey
        const header = decodeProtectedHeader(json.id_token)
        json.id_token = await new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: proxy.foreignKey ? key.kid : header.kid, typ: header.typ })
          .sign(await importJWK(key, 'RS256'))
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      res.end(JSON.stringify(json))
    } catch (error) {
      res.writeHead(502, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: 'server_error', error_description: (error as Error).message }))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxy.tokenUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return proxy
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}
