/**
 * Profiles GET /session.
 * - In process, the Web path: `node --cpu-prof --import tsx bench/profile-session.ts jwt|database [requests]`.
 * - Over HTTP, the Web handler behind server-speed's harness: `npx tsx bench/profile-session.ts http jwt|database [seconds]`
 *   runs bench/http/target.ts under --cpu-prof, loads it as server-speed does, and prints the profile's folder.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MemoryAdapter } from '../src/adapters/memory.js'
import Credentials from '../src/providers/credentials.js'
import { Latchkey } from '../src/server/index.js'
import { load, start } from './server-speed.js'

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
  const target = await start('latchkey', strategy, 'web', ['--cpu-prof', `--cpu-prof-dir=${dir}`])
  const result = await load(target, true, seconds)
  console.log(strategy, Math.round(result.rps), `req/s over HTTP, users rotating; profile in ${dir}`)
  await target.stop()
}
