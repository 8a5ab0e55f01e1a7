/**
 * A client plugin's kernel over the client's real fetch helpers (request.ts), `fetch` answering
 * `answer(request)`: what the plugin sent (a POST's content type and body as text) is recorded,
 * and the paths it told the session engine about (`settle`).
 * Call `vi.unstubAllGlobals()` after each test.
 */
import { vi } from 'vitest'
import type { ClientKernel } from '../../src/client/plugin.js'
import { post, request } from '../../src/client/request.js'

export interface Sent<Body = string> {
  method: string
  url: string
  type?: string | null
  body?: Body
}

type Stubbed<Body> = { kernel: ClientKernel; sent: Sent<Body>[]; settled: string[] }

type Answer = (request: Request) => { status?: number; body: unknown }

/** `json`: a POST's body is recorded as the JSON it holds (and every request as method, URL and body only). */
export function stubKernel(base: string, answer: Answer): Stubbed<string>
export function stubKernel(base: string, answer: Answer, options: { json: true }): Stubbed<any>
export function stubKernel(base: string, answer: Answer, { json = false } = {}): Stubbed<unknown> {
  const sent: Sent<unknown>[] = []
  const settled: string[] = []
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    if (json) sent.push({ method: req.method, url: req.url, body: req.method === 'POST' ? await req.clone().json() : undefined })
    else sent.push({ method: req.method, url: req.url, ...(req.method === 'POST' && { type: req.headers.get('content-type'), body: await req.clone().text() }) })
    const { status = 200, body } = answer(req)
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  })
  const kernel = {
    base,
    get: async (path: string) => (await request(base + path)).data,
    send: (path: string, fields: Record<string, string>, json?: boolean) => post(base + path, 'the-csrf-token', fields, json, base),
    settle: async (path: string) => void settled.push(path),
  } as unknown as ClientKernel
  return { kernel, sent, settled }
}
