/**
 * The one node:http-to-Web harness every Web handler in `server-speed` runs behind (latchkey's
 * Web handler, Auth.js, the ceiling): the request as a `Request` (method, URL, every header, the
 * body when there is one), the `Response` written back with each Set-Cookie apart. Nothing in it
 * knows which library is behind it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'

export function webHarness(handler: (request: Request) => Promise<Response>): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => void serve(handler, req, res)
}

async function serve(handler: (request: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const headers = new Headers()
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1])
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    const body = hasBody ? Buffer.concat(await req.toArray()) : undefined
    const response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }))
    const out: Record<string, string | string[]> = {}
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') out[name] = value
    })
    const cookies = response.headers.getSetCookie()
    if (cookies.length) out['set-cookie'] = cookies
    res.writeHead(response.status, out)
    res.end(Buffer.from(await response.arrayBuffer()))
  } catch (error) {
    res.writeHead(500).end(String(error))
  }
}
