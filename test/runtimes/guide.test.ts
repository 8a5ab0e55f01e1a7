/**
 * docs/guides/runtimes.md as a reader follows it: its files (the blocks that name one after their
 * language, ```ts auth.ts) written into a project per runtime, and its commands (the ```sh line
 * ending in each entry file) run there with each runtime's binary, then one sign-in against each.
 * Node, Bun and Deno open PGlite in the project's .latchkey/db, Deno with exactly the guide's
 * permission flags. wrangler is not a dependency, so the Worker is what it would deploy: the
 * toml's `main` bundled as wrangler bundles it, run by workerd with the toml's compatibility date
 * and flags and AUTH_SECRET as a secret. Also: a Worker that builds latchkey with every built-in
 * way at its module's top starts, as workerd refuses a start that makes a random value.
 *
 * `latchkey` in each project's node_modules is built from this repository's source by esbuild
 * (the server entries the guide imports, its dependencies inside, the optional peers left to
 * node_modules), standing in for `npm install latchkey` without a pack and an install.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { namedBlocks } from '../support/code-blocks.js'
import { freePort } from '../support/free-port.js'
import { Jar } from '../support/jar.js'
import { binary, serve, type Served } from './runtimes.js'

const root = join(import.meta.dirname, '../..')
const markdown = await readFile(join(root, 'docs/guides/runtimes.md'), 'utf8')
const files = namedBlocks(markdown)
/** Every line of the guide's ```sh blocks. */
const commandLines = [...markdown.matchAll(/^```sh\n([^]*?)^```$/gm)].flatMap(([, block]) => block!.split('\n').map((line) => line.trim()).filter(Boolean))
const entries = { node: 'node.ts', bun: 'bun.ts', deno: 'deno.ts' } as const
type Local = keyof typeof entries
const secret = 'a-secret-the-guide-test-sets-of-32-chars'
/** The programs the commands start, as this repository has them installed. */
const programs: Record<string, () => string> = {
  'npx tsx': () => join(root, 'node_modules/.bin/tsx'),
  bun: () => binary('bun'),
  deno: () => binary('deno'),
}

let work: string
const started = new Map<Local, Promise<{ origin: string; dir: string; output(): string }>>()
const children: ChildProcess[] = []
let worker: Promise<Served> | undefined
let topLevel: Promise<Served> | undefined
/** The control: a Worker that makes a random value as it starts. */
let refused: Promise<Served> | undefined

/** The guide's command that runs `entry`: its one line ending in that file, as program and arguments. */
function commandFor(entry: string): string[] {
  const lines = commandLines.filter((line) => line.split(/\s+/).at(-1) === entry)
  if (lines.length !== 1) throw new Error(`docs/guides/runtimes.md: expected one command ending in ${entry}, found ${lines.length}`)
  const line = lines[0]!
  const program = Object.keys(programs).find((name) => line === name || line.startsWith(`${name} `))
  if (!program) throw new Error(`docs/guides/runtimes.md: no runtime starts "${line}"; the test knows ${Object.keys(programs).join(', ')}`)
  return [programs[program]!(), ...line.slice(program.length).trim().split(/\s+/)]
}

/** The Worker's settings, from the guide's wrangler.toml. */
function wranglerToml(): { main: string; compatibilityDate: string; compatibilityFlags: string[] } {
  const toml = files['wrangler.toml']
  if (!toml) throw new Error('docs/guides/runtimes.md: no ```toml wrangler.toml block')
  const value = (key: string) => {
    const found = new RegExp(`^${key}\\s*=\\s*(.+)$`, 'm').exec(toml)?.[1]
    if (!found) throw new Error(`wrangler.toml in docs/guides/runtimes.md has no ${key}`)
    return JSON.parse(found) as unknown
  }
  return { main: value('main') as string, compatibilityDate: value('compatibility_date') as string, compatibilityFlags: (value('compatibility_flags') as string[] | undefined) ?? [] }
}

/** The repository's source file for a `latchkey/...` import, by tsconfig.json's paths. */
async function sourceOf(specifier: string): Promise<string> {
  const paths = (JSON.parse(await readFile(join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths
  for (const [key, [target]] of Object.entries(paths)) {
    if (key === specifier) return join(root, target!)
    if (key.endsWith('*') && specifier.startsWith(key.slice(0, -1))) return join(root, target!.replace('*', specifier.slice(key.length - 1)))
  }
  throw new Error(`tsconfig.json maps no path for ${specifier}`)
}

/** latchkey as `npm install` would put it in node_modules: the entries the guide's files import, built from source. */
async function latchkeyPackage(dir: string): Promise<void> {
  const imported = new Set([...Object.values(files).join('\n').matchAll(/from '(latchkey\/[\w/-]+)'/g)].map(([, specifier]) => specifier!))
  const names = [...imported].map((specifier) => specifier.slice('latchkey/'.length))
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }
  await build({
    entryPoints: Object.fromEntries(await Promise.all(names.map(async (name) => [name, await sourceOf(`latchkey/${name}`)] as const))),
    outdir: dir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    absWorkingDir: root,
    tsconfig: join(root, 'tsconfig.json'),
    external: Object.keys(manifest.peerDependencies),
    logLevel: 'warning',
  })
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'latchkey', type: 'module', exports: Object.fromEntries(names.map((name) => [`./${name}`, `./${name}.js`])) }))
}

/**
 * A project for `runtime`: the guide's files, an .env with AUTH_SECRET, and node_modules holding
 * latchkey and PGlite as real folders (Deno checks --allow-read against a module's real path).
 * Then its command, resolved once it says it listens on PORT.
 */
async function start(runtime: Local, built: string, pglite: string): Promise<{ origin: string; dir: string; output(): string }> {
  const dir = join(work, runtime)
  await mkdir(join(dir, 'node_modules/@electric-sql'), { recursive: true })
  for (const [name, code] of Object.entries(files)) await writeFile(join(dir, name), code)
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  await writeFile(join(dir, '.env'), `AUTH_SECRET=${secret}\n`)
  await cp(built, join(dir, 'node_modules/latchkey'), { recursive: true })
  await cp(pglite, join(dir, 'node_modules/@electric-sql/pglite'), { recursive: true })
  const port = await freePort()
  // Nothing of this run's own: no AUTH_*, no DATABASE_URL (openDatabase would take it), no npm_*.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(AUTH_|npm_)/i.test(name) && name !== 'DATABASE_URL'))
  Object.assign(env, { PORT: String(port), DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', DO_NOT_TRACK: '1', NO_COLOR: '1' })
  const [command, ...args] = commandFor(entries[runtime])
  const child = spawn(command!, args, { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let output = ''
  return new Promise((resolve, reject) => {
    const listening = `localhost:${port}`
    const timer = setTimeout(() => reject(new Error(`${runtime}: ${args.join(' ')} did not listen on ${port} in 120 s:\n${output}`)), 120_000)
    const read = (chunk: Buffer) => {
      output += chunk
      if (output.includes(listening)) {
        clearTimeout(timer)
        resolve({ origin: `http://127.0.0.1:${port}`, dir, output: () => output })
      }
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${runtime}: ${args.join(' ')} exited (${code}) before it listened:\n${output}`))
    })
  })
}

/** `entry` bundled as wrangler bundles a Worker's main, into the file `out`. */
async function bundleWorker(entry: string, out: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    absWorkingDir: root,
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warning',
  })
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'latchkey-guide-'))
  const built = join(work, 'latchkey')
  await latchkeyPackage(built)
  const pglite = await realpath(join(root, 'node_modules/@electric-sql/pglite'))
  for (const runtime of Object.keys(entries) as Local[]) started.set(runtime, start(runtime, built, pglite))

  const workerDir = join(work, 'workerd')
  await mkdir(workerDir)
  for (const [name, code] of Object.entries(files)) await writeFile(join(workerDir, name), code)
  const { main, compatibilityDate, compatibilityFlags } = wranglerToml()
  await bundleWorker(join(workerDir, main), join(workerDir, 'worker.js'))
  worker = serve('workerd', workerDir, '', { main: 'worker.js', bindings: { AUTH_SECRET: secret }, compatibilityDate, compatibilityFlags })
  await bundleWorker(join(import.meta.dirname, 'top-level-worker.ts'), join(workerDir, 'top-level.js'))
  topLevel = serve('workerd', workerDir, '', { main: 'top-level.js', bindings: {} })
  await writeFile(join(workerDir, 'random.js'), 'const bytes = crypto.getRandomValues(new Uint8Array(4))\nexport default { fetch: () => new Response(String(bytes)) }\n')
  refused = serve('workerd', workerDir, '', { main: 'random.js', bindings: {} })
  // Every start is awaited here, so none is left running if one fails.
  await Promise.allSettled([...started.values(), worker, topLevel, refused])
}, 180_000)

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM')
  await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)))
  for (const server of [worker, topLevel, refused]) await server?.then((s) => s.stop(), () => {})
  if (work) await rm(work, { recursive: true, force: true })
})

/** The guide's credentials, once: what the server offers, the sign-in's answer and the session after it. */
async function signInOnce(origin: string) {
  const jar = new Jar((request) => fetch(request), origin)
  const providers = Object.keys((await (await jar.get('/auth/providers')).json()) as object)
  const answer = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'demo' }, { 'x-auth-return-redirect': '1' })
  const session = (await jar.session()) as { user: { email: string } } | null
  return { providers, status: answer.status, email: session?.user.email, cookie: jar.cookies.get('latchkey.session-token') ?? '' }
}

describe('docs/guides/runtimes.md, run as written', () => {
  test('each entry file has its one command, and each command a runtime', () => {
    expect(Object.values(entries).map((entry) => commandFor(entry)[0])).toEqual([programs['npx tsx']!(), binary('bun'), binary('deno')])
    expect(wranglerToml()).toMatchObject({ main: 'worker.ts', compatibilityFlags: ['nodejs_compat'] })
  })

  test.each(Object.keys(entries) as Local[])('%s: the command serves auth.ts, on PGlite in .latchkey/db, and signs in', async (runtime) => {
    const server = await started.get(runtime)!
    const result = await signInOnce(server.origin).catch((error: Error) => {
      throw new Error(`${error.message}\n${runtime} said:\n${server.output()}`)
    })
    expect(result).toMatchObject({ providers: ['credentials'], status: 200, email: 'ada@example.com' })
    // A database session (an opaque token, not a JWT's five parts), in PGlite's folder.
    expect(result.cookie.split('.')).toHaveLength(1)
    expect(existsSync(join(server.dir, '.latchkey/db/PG_VERSION'))).toBe(true)
  })

  test('Workers: worker.ts under workerd, built at its top with AUTH_SECRET from process.env, signs in (JWT sessions)', async () => {
    const server = await worker!
    const result = await signInOnce(server.origin).catch((error: Error) => {
      throw new Error(`${error.message}\nworkerd said:\n${server.stderr()}`)
    })
    expect(result).toMatchObject({ providers: ['credentials'], status: 200, email: 'ada@example.com' })
    expect(result.cookie.split('.')).toHaveLength(5)
  })
})

test('a Worker that builds latchkey with every built-in way at its top starts under workerd, which refuses a start that makes a random value', async () => {
  await expect(refused).rejects.toThrow(/Disallowed operation called within global scope/)
  const server = await topLevel!
  const providers = (await (await fetch(`${server.origin}/auth/providers`)).json()) as Record<string, { type: string }>
  expect(Object.keys(providers).sort()).toEqual(['credentials', 'email', 'github', 'google', 'passkey', 'password'])
})
