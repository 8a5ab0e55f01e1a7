/**
 * `npx latchkey` as its own process, as a user runs it (test/support/cli.ts): .env read before
 * migrate and doctor, an unset DATABASE_URL named as such, and doctor on the app's own server
 * module, with the configuration inline as the guides write it.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { Latchkey } from '../../src/server/latchkey.js'
import { cliProject, removeCli, runCli } from '../support/cli.js'
import { needsService } from '../support/needs-service.js'
import { createIsolatedSchema, type IsolatedSchema } from './isolated-schema.js'

// Each test spawns the CLI once or a few times, a second or two each, far more on a loaded machine.
vi.setConfig({ testTimeout: 120_000 })

const projects: string[] = []
const project = async (files: Record<string, string>) => {
  const dir = await cliProject(files)
  projects.push(dir)
  return dir
}
afterAll(() => removeCli(projects))

const root = join(import.meta.dirname, '../..')
/** An import of latchkey's source from a module of the test's project (tsx takes .js to the .ts). */
const src = (path: string) => JSON.stringify(join(root, 'src', path))
const secret = 'a'.repeat(44)

interface ServerModule {
  origin?: string
  /** The configuration's other fields, as source. */
  extra?: string
  /** 'node': served through toNodeHandler on `port`; 'web': a fetch handler, as under Hono or Bun. */
  served?: 'node' | 'web'
  port?: number
}

/** A server file as the guides write one: the configuration inline, the server started at the end. */
function serverModule({ origin = 'https://app.example.com', extra = '', served = 'node', port = 3000 }: ServerModule = {}): string {
  return `
import { createServer } from 'node:http'
import Credentials from ${src('providers/credentials.js')}
import { toNodeHandler } from ${src('node/index.js')}
import { MemoryAdapter } from ${src('adapters/memory.js')}
import { Latchkey } from ${src('server/index.js')}

const auth = Latchkey({
  secret: process.env.AUTH_SECRET,
  origin: '${origin}',
  providers: [Credentials({ credentials: { username: { label: 'Name' } }, authorize: async () => null })],
  ${extra}
})
${
  served === 'node'
    ? `const port: number = ${port}
const latchkey = toNodeHandler(auth)
createServer((req, res) => latchkey(req, res)).listen(port, () => console.log(\`listening on \${port}\`))`
    : 'export default { fetch: (request: Request) => auth(request) }'
}
void MemoryAdapter
`
}

describe('.env', () => {
  test('migrate and doctor read .env from the working directory and say so on stderr in one line; values are never printed', async () => {
    const dir = await project({ '.env': '# the app\'s settings\nexport DATABASE_URL="mysql://someone:hunter2@db.example/app" # not PostgreSQL\nPORT=3000\n' })
    const { code, stderr } = await runCli(['migrate'], { cwd: dir })
    const lines = stderr.trim().split('\n')
    expect(lines[0]).toBe(`latchkey: read ${join(dir, '.env')}: set DATABASE_URL, PORT`)
    // The URL from .env is the one used: not the embedded database, not a missing PGlite.
    expect(lines[1]).toBe('latchkey migrate failed: openDatabase: expected a postgres:// or postgresql:// URL (or none, for the embedded database), got mysql://someone:***@db.example/app')
    expect(lines).toHaveLength(2)
    expect(stderr).not.toContain('hunter2')
    expect(code).toBe(1)
  })

  test('a variable set in the environment is kept, and the line says which', async () => {
    const dir = await project({ '.env': 'DATABASE_URL=mysql://from-file/app\nAUTH_SECRET=x\n' })
    const { code, stderr } = await runCli(['migrate'], { cwd: dir, env: { DATABASE_URL: 'mysql://from-environment/app' } })
    expect(stderr).toContain(`latchkey: read ${join(dir, '.env')}: set AUTH_SECRET; kept DATABASE_URL as the environment has it\n`)
    expect(stderr).toMatch(/got mysql:\/\/from-environment\/app/)
    expect(code).toBe(1)
  })

  test('a line that is not NAME=value is named with its line number and skipped', async () => {
    const dir = await project({ '.env': 'DATABASE_URL=mysql://h/app\nnot an assignment\n' })
    const { stderr } = await runCli(['migrate'], { cwd: dir })
    expect(stderr).toContain(`latchkey: ${join(dir, '.env')} line 2: expected NAME=value; skipped\n`)
    expect(stderr).toMatch(/got mysql:\/\/h\/app/)
  })
  test('--env reads another file instead, which must exist', async () => {
    const dir = await project({ '.env': 'DATABASE_URL=mysql://from-dot-env/app\n', 'deploy.env': 'DATABASE_URL=mysql://from-deploy/app\n' })
    const other = await runCli(['migrate', '--env', 'deploy.env'], { cwd: dir })
    expect(other.stderr).toContain(`latchkey: read ${join(dir, 'deploy.env')}: set DATABASE_URL\n`)
    expect(other.stderr).toMatch(/got mysql:\/\/from-deploy\/app/)
    const missing = await runCli(['doctor', 'server.ts', '--env', 'nowhere.env'], { cwd: dir })
    expect(missing.stderr).toMatch(/^latchkey: could not read nowhere\.env: ENOENT/)
    expect(missing.code).toBe(1)
  })

  test('secret --env writes a file that does not exist yet (node itself refuses one named after --env-file)', async () => {
    const dir = await project({})
    const { code, stdout } = await runCli(['secret', '--env', 'production.env'], { cwd: dir })
    expect(stdout).toMatch(/^Wrote a random AUTH_SECRET \(44 characters\) to production\.env/)
    expect(code).toBe(0)
    expect(readFileSync(join(dir, 'production.env'), 'utf8')).toMatch(/^AUTH_SECRET=[A-Za-z0-9+/]{44}\n$/)
  })
})

describe('migrate without DATABASE_URL', () => {
  test('says DATABASE_URL is unset and the embedded default is used, then that its driver is missing', async () => {
    // The app has not installed PGlite: a loader hook of the test's makes it missing.
    const dir = await project({
      'hide-pglite.mjs': "import { register } from 'node:module'\nregister('./hooks.mjs', import.meta.url)\n",
      'hooks.mjs': `export async function resolve(specifier, context, next) {
  if (specifier === '@electric-sql/pglite') throw Object.assign(new Error("Cannot find package '@electric-sql/pglite'"), { code: 'ERR_MODULE_NOT_FOUND' })
  return next(specifier, context)
}\n`,
    })
    const { code, stdout, stderr } = await runCli(['migrate'], { cwd: dir, nodeArgs: ['--import', './hide-pglite.mjs'] })
    expect(stderr.trim().split('\n')).toEqual([
      'latchkey migrate: DATABASE_URL is unset (not in the environment, and there is no .env here), so the embedded database (PGlite) in .latchkey/db is used; for a PostgreSQL server set DATABASE_URL or pass --database-url.',
      'latchkey migrate failed: The embedded database needs the optional package "@electric-sql/pglite"; install it with: npm install @electric-sql/pglite',
    ])
    expect(stdout).toBe('')
    expect(code).toBe(1)
  })
})

describe('doctor on the app\'s server module', () => {
  let busy: Server
  let port: number
  beforeAll(async () => {
    // The port the app's server file listens on is taken, as by the dev server already running.
    busy = createServer()
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done))
    port = (busy.address() as { port: number }).port
  })
  afterAll(() => new Promise((done) => busy.close(done)))

  test('a server.ts with the configuration inline: its instance checked, its server moved off its port and closed, the process ended', async () => {
    const dir = await project({ 'server.ts': serverModule({ origin: 'http://localhost:3000', extra: 'adapter: MemoryAdapter(),', port }), '.env': `AUTH_SECRET=${secret}\n` })
    const { code, stdout, stderr } = await runCli(['doctor', './server.ts'], { cwd: dir })
    expect(stderr).toContain(`latchkey: read ${join(dir, '.env')}: set AUTH_SECRET\n`)
    expect(stderr).toContain('latchkey doctor: ./server.ts started a server; doctor moved it to a free loopback port and closes it after the check.')
    expect(stdout).toMatch(/^warning The origin http:\/\/localhost:3000 is this machine: .* Fine while developing; with NODE_ENV=production this is an error\.$/m)
    expect(stdout).toMatch(/^warning The adapter is a MemoryAdapter: .*\n {8}fix: Use openDatabase\(\) from latchkey\/adapters\/postgres/m)
    // Served through toNodeHandler: each request has its socket's address.
    expect(stdout).not.toMatch(/rate limits/i)
    expect(stdout).toMatch(/0 error\(s\), 2 warning\(s\)\.\n/)
    expect(stdout).not.toContain(secret)
    expect(code).toBe(0)
  })

  test('in production, an https origin means a proxy in front as a rule: per-client limits need trustProxy, else a warning; with it, no problems', async () => {
    const env = { AUTH_SECRET: secret, NODE_ENV: 'production' }
    const guessed = await project({ 'server.ts': serverModule({ port }) })
    const a = await runCli(['doctor', 'server.ts'], { cwd: guessed, env })
    expect(a.stdout).toMatch(/^warning Per-client rate limits may not tell clients apart: the origin is https, and TLS usually ends at a proxy or load balancer in front of node, .*\n {8}fix: Set rateLimit\.trustProxy/m)
    expect(a.code).toBe(0)
    for (const told of ['rateLimit: { trustProxy: 1 },', 'rateLimit: { trustProxy: false },']) {
      const ready = await project({ 'server.ts': serverModule({ extra: told, port }) })
      const b = await runCli(['doctor', 'server.ts'], { cwd: ready, env })
      expect(b.stdout).toMatch(/^No problems found\.$/m)
      expect(b.stdout).not.toMatch(/^(warning|error)/m)
      expect(b.code).toBe(0)
    }
  })

  test('every instance the module creates is checked; one called with Web Requests and no getClientAddress is told its per-client limits do not apply', async () => {
    const web = serverModule({ served: 'web' })
    const second = `export const other = Latchkey({ secret: process.env.AUTH_SECRET, origin: 'https://app.example.com', basePath: '/other', providers: [], rateLimit: { getClientAddress: (request: Request) => request.headers.get('cf-connecting-ip') } })\n`
    const dir = await project({ 'app.ts': web + second })
    const { code, stdout } = await runCli(['doctor', 'app.ts'], { cwd: dir, env: { AUTH_SECRET: secret } })
    const [first, other] = stdout.split(/^Latchkey instance 2 of 2 \(basePath \/other\):$/m)
    expect(first).toMatch(/^Latchkey instance 1 of 2 \(basePath \/auth\):\nwarning Per-client rate limits do not apply: this instance is called with Web Requests .*\n {8}fix: Pass rateLimit\.getClientAddress/m)
    expect(other).not.toMatch(/rate limits/i)
    expect(code).toBe(0)
  })

  test('behind a proxy (trustHost) without trustProxy, per-client limits are said to see one client; trustProxy quiets it', async () => {
    const proxied = await project({ 'server.ts': serverModule({ extra: 'trustHost: true,', port }) })
    const a = await runCli(['doctor', 'server.ts'], { cwd: proxied, env: { AUTH_SECRET: secret } })
    expect(a.stdout).toMatch(/^warning Per-client rate limits may not tell clients apart: trustHost is set, .*\n {8}fix: Set rateLimit\.trustProxy/m)
    const told = await project({ 'server.ts': serverModule({ extra: 'trustHost: true, rateLimit: { trustProxy: 1 },', port }) })
    const b = await runCli(['doctor', 'server.ts'], { cwd: told, env: { AUTH_SECRET: secret } })
    expect(b.stdout).toMatch(/^No problems found\.$/m)
    expect(b.stdout).not.toMatch(/^(warning|error)/m)
  })
})

describe('doctor in production', () => {
  test('NODE_ENV=production: an http origin is an error, on this machine or not, and so is the memory adapter', async () => {
    const local = await project({ 'server.ts': serverModule({ origin: 'http://localhost:3000', extra: 'adapter: MemoryAdapter(),', port: 0 }), '.env': `NODE_ENV=production\nAUTH_SECRET=${secret}\n` })
    const a = await runCli(['doctor', 'server.ts'], { cwd: local })
    expect(a.stdout).toMatch(/^error {3}The origin http:\/\/localhost:3000 is this machine: links, redirects and passkeys would point at each visitor's own computer\.\n {8}fix: Set `origin` \(or AUTH_URL\) to the app's public https origin/m)
    expect(a.stdout).toMatch(/^error {3}The adapter is a MemoryAdapter: /m)
    expect(a.stdout).toMatch(/2 error\(s\), 0 warning\(s\)\./)
    expect(a.code).toBe(1)
    const remote = await project({ 'server.ts': serverModule({ origin: 'http://app.example.com', port: 0 }) })
    const b = await runCli(['doctor', 'server.ts'], { cwd: remote, env: { NODE_ENV: 'production', AUTH_SECRET: secret } })
    expect(b.stdout).toMatch(/^error {3}The origin http:\/\/app\.example\.com is not https: cookies would travel without Secure\./m)
    expect(b.code).toBe(1)
  })

  test('a module whose Latchkey() refuses to start (no origin in production) is still checked: the problem named once, with its fix', async () => {
    const dir = await project({ 'server.ts': `import { Latchkey } from ${src('server/index.js')}\nexport const auth = Latchkey({ secret: process.env.AUTH_SECRET, providers: [] })\n` })
    const { code, stdout } = await runCli(['doctor', 'server.ts'], { cwd: dir, env: { NODE_ENV: 'production', AUTH_SECRET: secret } })
    expect(stdout).toBe(
      'error   No trusted origin: without one latchkey would build links from the request\'s Host header, which anyone can forge, so in production it refuses to start.\n' +
        '        fix: Set `origin` (or AUTH_URL) to the app\'s public origin, for example "https://app.example.com"; on a platform that sets Host itself, set `trustHost: true` (or AUTH_TRUST_HOST=true) instead.\n' +
        '1 error(s), 0 warning(s).\n',
    )
    expect(code).toBe(1)
  })
})

describe('doctor and the secret', () => {
  test('16 characters pass, as at start-up; 15 are named with the same words the server throws, and never printed', async () => {
    const dir = await project({ 'server.ts': serverModule({ port: 0 }) })
    const enough = await runCli(['doctor', 'server.ts'], { cwd: dir, env: { AUTH_SECRET: 's'.repeat(16) } })
    expect(enough.stdout).toMatch(/^No problems found\.$/m)
    expect(enough.code).toBe(0)
    const short = await runCli(['doctor', 'server.ts'], { cwd: dir, env: { AUTH_SECRET: 's'.repeat(15) } })
    const line = 'A secret of 15 characters is too short to sign and encrypt with; each secret must be at least 16 characters long.'
    expect(short.stdout).toMatch(new RegExp(`^error {3}${line}\\n {8}fix: Use a random one \\(npx latchkey secret writes one into \\.env, or: openssl rand -base64 33\\)\\.$`, 'm'))
    expect(short.stdout).not.toContain('s'.repeat(15))
    expect(short.code).toBe(1)
    expect(() => Latchkey({ secret: 's'.repeat(15), providers: [] })).toThrow(`latchkey: a${line.slice(1)}`)
  })
})

const databaseUrl = needsService('DATABASE_URL', 'doctor on an app holding a database connection', 'postgres://postgres@127.0.0.1:5432/test', 'test/adapters/cli-process.test.ts')

describe.runIf(databaseUrl)('doctor ends its process', () => {
  let schema: IsolatedSchema
  beforeAll(async () => {
    schema = await createIsolatedSchema(databaseUrl!)
  })
  afterAll(() => schema?.drop())

  test('an app with an open database connection and a timer of its own: doctor reports, closes the database and exits', async () => {
    const url = new URL(databaseUrl!)
    url.searchParams.set('options', `-c search_path=${schema.name}`)
    const dir = await project({
      'server.ts': `import { openDatabase } from ${src('adapters/postgres/index.js')}
import { Latchkey } from ${src('server/index.js')}
const adapter = await openDatabase(process.env.DATABASE_URL)
// The app's own purge timer: nothing doctor can reach or close.
setInterval(() => {}, 60_000)
export const auth = Latchkey({ adapter, origin: 'https://app.example.com', providers: [], rateLimit: { trustProxy: 1 } })
`,
    })
    // The signal is the process's exit; without one it is killed at the bound and the test fails.
    const { code, stdout } = await runCli(['doctor', 'server.ts'], { cwd: dir, env: { DATABASE_URL: url.href, AUTH_SECRET: secret }, within: 60_000 })
    expect(stdout).toBe('No problems found.\n')
    expect(code).toBe(0)
  }, 90_000)
})
