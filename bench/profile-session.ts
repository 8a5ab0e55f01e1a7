/**
 * Profiles GET /session.
 * - In process, the Web path: `node --cpu-prof --import tsx bench/profile-session.ts jwt|database [requests]`.
 * - Over HTTP, through `toNodeHandler`: `npx tsx bench/profile-session.ts http jwt|database [seconds]` runs
 *   bench/http/target.ts under --cpu-prof and drives it with autocannon; the profile's folder is printed.
 */
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { MemoryAdapter } from '../src/adapters/memory.js'
import Credentials from '../src/providers/credentials.js'
import { Latchkey } from '../src/server/index.js'

if (process.argv[2] === 'http') await overHttp((process.argv[3] ?? 'jwt') as 'jwt' | 'database', Number(process.argv[4] ?? 5))
else await inProcess((process.argv[2] ?? 'jwt') as 'jwt' | 'database', Number(process.argv[3] ?? 20000))

async function inProcess(strategy: 'jwt' | 'database', n: number) {
  const handler = Latchkey({
    secret: 'bench-secret-0123456789-abcdefghij',
    adapter: strategy === 'database' ? MemoryAdapter() : undefined,
    session: { strategy },
    providers: [Credentials({ authorize: () => ({ id: 'u1', email: 'u1@example.com', name: 'U' }) })],
  })
  const csrf = await handler(new Request('http://localhost/auth/csrf'))
  const csrfCookie = csrf.headers.getSetCookie()[0].split(';')[0]
  const { csrfToken } = await csrf.json()
  const signin = await handler(new Request('http://localhost/auth/callback/credentials', { method: 'POST', headers: { cookie: csrfCookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrfToken }) }))
  const cookie = signin.headers.getSetCookie().find((c) => c.includes('session-token'))!.split(';')[0]
  const t = performance.now()
  for (let i = 0; i < n; i++) await (await handler(new Request('http://localhost/auth/session', { headers: { cookie } }))).text()
  console.log(strategy, Math.round(n / ((performance.now() - t) / 1000)), 'req/s')
}

async function overHttp(strategy: 'jwt' | 'database', seconds: number) {
  const dir = join(tmpdir(), 'latchkey-profiles')
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', 'bench/http/target.ts', 'latchkey', strategy], { stdio: ['pipe', 'pipe', 'inherit'] })
  const ready = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).on('line', (l) => l.startsWith('READY ') && resolve(l)))
  const [, port, json] = /^READY (\d+) (.*)$/.exec(ready)!
  const { sessionCookie, seeded } = JSON.parse(json) as { sessionCookie: string; seeded: string | null }
  const origin = `http://127.0.0.1:${port}`
  let cookie = seeded && `${sessionCookie}=${seeded}`
  if (!cookie) {
    const csrf = await fetch(`${origin}/auth/csrf`)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const callback = await fetch(`${origin}/auth/callback/credentials`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken }),
    })
    cookie = callback.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith(`${sessionCookie}=`))!
  }
  const result = await autocannon({ url: `${origin}/auth/session`, connections: 10, duration: seconds, headers: { cookie } })
  console.log(strategy, Math.round(result.requests.average), `req/s over HTTP; profile in ${dir}`)
  child.stdin!.end()
  await new Promise((resolve) => child.once('exit', resolve))
}
