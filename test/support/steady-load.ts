/**
 * Load as a load balancer's clients make it: requests one after another on a few keep-alive
 * connections, every answer (or failure) recorded with its times, never thrown.
 */
import { Agent, request } from 'node:http'

export interface Answer {
  path: string
  /** Local ms: when the request was sent, and when its answer (or failure) was complete. */
  at: number
  end: number
  status?: number
  /** The failure's code (ECONNREFUSED, ECONNRESET, TIMEOUT): the request got no answer. */
  error?: string
  connection?: string
  retryAfter?: string
  setCookies: string[]
  body: string
}

export interface Send {
  method?: string
  headers?: Record<string, string>
  body?: string
}

/**
 * A client on `sockets` keep-alive connections to 127.0.0.1:`port`; a request without an answer in
 * `timeoutMs` is a TIMEOUT. `localAddress` (any of 127.0.0.0/8) makes it a client of its own to
 * the server: a load balancer in front passes it on in X-Forwarded-For.
 */
export function keepAliveClient(port: number, sockets = 4, timeoutMs = 10_000, localAddress?: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets })
  const send = (path: string, { method = 'GET', headers = {}, body }: Send = {}): Promise<Answer> =>
    new Promise((resolve) => {
      const at = Date.now()
      const failed = (error: string) => resolve({ path, at, end: Date.now(), error, setCookies: [], body: '' })
      const req = request({ host: '127.0.0.1', port, path, method, headers, agent, localAddress }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('error', (error: NodeJS.ErrnoException) => failed(error.code ?? error.message))
        res.on('end', () =>
          resolve({
            path,
            at,
            end: Date.now(),
            status: res.statusCode,
            connection: res.headers.connection,
            retryAfter: res.headers['retry-after'],
            setCookies: res.headers['set-cookie'] ?? [],
            body: text,
          }),
        )
      })
      req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('no answer'), { code: 'TIMEOUT' })))
      req.on('error', (error: NodeJS.ErrnoException) => failed(error.code ?? error.message))
      req.end(body)
    })
  return { send, close: () => agent.destroy() }
}

/** `loops` loops, each sending `next(i)` after the last answer, until `stopped()`; every answer, in order of sending. */
export async function steadyLoad(next: (i: number) => Promise<Answer>, loops: number, stopped: () => boolean): Promise<Answer[]> {
  const answers: Answer[] = []
  let i = 0
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (!stopped()) answers.push(await next(i++))
    }),
  )
  return answers.sort((a, b) => a.at - b.at)
}

/** `check()` every `everyMs` until `stopped()`, as a load balancer's health check. */
export async function poll(check: () => Promise<Answer>, everyMs: number, stopped: (last: Answer) => boolean): Promise<Answer[]> {
  const answers: Answer[] = []
  for (;;) {
    const answer = await check()
    answers.push(answer)
    if (stopped(answer)) return answers
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/** The `name=value` of each cookie an answer set, for the next request's Cookie header. */
export const cookiesOf = (answer: Answer): string => answer.setCookies.map((cookie) => cookie.split(';')[0]).join('; ')
