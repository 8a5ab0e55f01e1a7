/**
 * A client plugin's kernel over the client's real fetch helpers (request.ts), `fetch` answering
 * `answer(request)`: what the plugin sent (a POST's content type and body as text) is recorded.
 * Call `vi.unstubAllGlobals()` after each test.
 */
import { vi } from 'vitest'
import type { ClientKernel } from '../../src/client/plugin.js'
import { post, request } from '../../src/client/request.js'

export interface Sent {
  method: string
  url: string
  type?: string | null
  body?: string
}

export function stubKernel(base: string, answer: (request: Request) => { status?: number; body: unknown }): { kernel: ClientKernel; sent: Sent[] } {
  const sent: Sent[] = []
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    sent.push({ method: req.method, url: req.url, ...(req.method === 'POST' && { type: req.headers.get('content-type'), body: await req.clone().text() }) })
    const { status = 200, body } = answer(req)
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  })
  const kernel = {
    base,
    get: async (path: string) => (await request(base + path)).data,
    send: (path: string, fields: Record<string, string>, json?: boolean) => post(base + path, 'the-csrf-token', fields, json, base),
    settle: async () => {},
  } as unknown as ClientKernel
  return { kernel, sent }
}
