/** A tiny cookie-keeping client for driving the handler as a browser would, without following redirects. */
import { parseCookies } from '../../src/server/kernel/cookies.js'

export type Fetcher = (request: Request) => Promise<Response>

export class Jar {
  readonly cookies = new Map<string, string>()
  constructor(
    private readonly fetcher: Fetcher,
    readonly origin = 'http://localhost:3000',
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '))
    const response = await this.fetcher(new Request(new URL(path, this.origin), { ...init, headers, redirect: 'manual' }))
    this.store(response)
    return response
  }

  get(path: string, headers?: Record<string, string>): Promise<Response> {
    return this.request(path, { headers })
  }

  postForm(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    })
  }

  postJson(path: string, body: unknown, headers?: Record<string, string>): Promise<Response> {
    return this.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } })
  }

  async csrf(): Promise<string> {
    const res = await this.get('/auth/csrf')
    return ((await res.json()) as { csrfToken: string }).csrfToken
  }

  async session(): Promise<any> {
    return (await this.get('/auth/session')).json()
  }

  private store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const [name, value] = [...parseCookies(pair)][0] ?? []
      if (!name) continue
      const expired = /Max-Age=0/i.test(line) || /Expires=Thu, 01 Jan 1970/i.test(line)
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
}
