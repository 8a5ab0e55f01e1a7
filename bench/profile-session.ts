/** Profiles GET /session in process: `node --cpu-prof --import tsx bench/profile-session.ts jwt|database`. */
import { MemoryAdapter } from '../src/adapters/memory.js'
import Credentials from '../src/providers/credentials.js'
import { Latchkey } from '../src/server/index.js'

const strategy = (process.argv[2] ?? 'jwt') as 'jwt' | 'database'
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
const n = Number(process.argv[3] ?? 20000)
const t = performance.now()
for (let i = 0; i < n; i++) await (await handler(new Request('http://localhost/auth/session', { headers: { cookie } }))).text()
console.log(strategy, Math.round(n / ((performance.now() - t) / 1000)), 'req/s')
