/**
 * The scenario app (app.ts) bundled once by esbuild, from source, and served by each runtime as a
 * child process on a loopback port: Node (through latchkey/node), Bun (`Bun.serve`), Deno
 * (`Deno.serve`) and workerd (a module worker in a small capnp config, no Node compatibility).
 * The runtimes are the npm packages `bun`, `deno` and `workerd`; nothing downloads at run time.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { build } from 'esbuild'

const root = join(import.meta.dirname, '../..')
export type RuntimeName = 'node' | 'bun' | 'deno' | 'workerd'

/** Bundles app.ts for a fetch runtime (no Node built-ins) and serve-node.ts for Node, into a new folder. */
export async function bundle(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-runtimes-'))
  const common = { bundle: true, format: 'esm', target: 'es2022', absWorkingDir: root, logLevel: 'warning', tsconfig: join(root, 'tsconfig.json') } as const
  await build({ ...common, entryPoints: [join(import.meta.dirname, 'app.ts')], outfile: join(dir, 'app.js'), platform: 'neutral', conditions: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'] })
  await build({ ...common, entryPoints: [join(import.meta.dirname, 'serve-node.ts')], outfile: join(dir, 'serve-node.js'), platform: 'node', external: ['./app.js', './pglite-database.js'] })
  // The PGlite variant's database, apart from app.js: the SQL adapter reaches node: modules, and
  // PGlite loads its WASM and data file beside its own module, so it stays external and each
  // runtime resolves it from the repository's node_modules (linked into the folder).
  await build({ ...common, entryPoints: [join(import.meta.dirname, 'pglite-database.ts')], outfile: join(dir, 'pglite-database.js'), platform: 'node', external: ['@electric-sql/pglite'] })
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
  // The Hono guide's Worker, as wrangler would bundle it.
  await build({ ...common, entryPoints: [join(root, 'examples/hono/worker.ts')], outfile: join(dir, 'hono-worker.js'), platform: 'neutral', conditions: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'] })
  await writeFile(join(dir, 'serve-bun.js'), bunServer)
  await writeFile(join(dir, 'serve-deno.js'), denoServer)
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }')
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

const bunServer = `import app from './app.js'
const env = { SINK_URL: process.argv[2], openPGlite: async () => (await import('./pglite-database.js')).openPGlite() }
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => app.fetch(request, env) })
console.log(JSON.stringify({ port: server.port }))
`
const denoServer = `import app from './app.js'
const env = { SINK_URL: Deno.args[0], openPGlite: async () => (await import('./pglite-database.js')).openPGlite() }
Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(JSON.stringify({ port })) }, (request) => app.fetch(request, env))
`
export interface Worker {
  /** The module's file in the bundle folder. */
  main: string
  /** Text bindings: `env.NAME` (and `process.env.NAME` with nodejs_compat). */
  bindings: Record<string, string>
  compatibilityFlags?: string[]
  /** Default 2025-06-01. */
  compatibilityDate?: string
}

/** A module worker in a capnp config: outbound fetch reaches loopback only. */
const workerdConfig = (worker: Worker) => `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = ${JSON.stringify(worker.main)}, esModule = embed ${JSON.stringify(worker.main)})],
  compatibilityDate = ${JSON.stringify(worker.compatibilityDate ?? '2025-06-01')},
  compatibilityFlags = ${JSON.stringify(worker.compatibilityFlags ?? [])},
  bindings = [${Object.entries(worker.bindings).map(([name, text]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(text)})`).join(', ')}],
  globalOutbound = "loopback",
);
`

/** The runtime's executable: its platform package's binary, else the package's own bin. */
export function binary(name: Exclude<RuntimeName, 'node'>): string {
  const { platform, arch } = process
  const candidates = {
    bun: [`@oven/bun-${platform}-${arch}/bin/bun`, 'bun/bin/bun.exe'],
    deno: [`@deno/${platform}-${arch}-glibc/deno`, `@deno/${platform}-${arch}/deno`, 'deno/deno'],
    workerd: [`@cloudflare/workerd-${platform}-${arch === 'x64' ? '64' : arch}/bin/workerd`, 'workerd/bin/workerd'],
  }[name].map((path) => join(root, 'node_modules', path))
  const found = candidates.find((path) => existsSync(path))
  if (!found) throw new Error(`${name}: no binary at ${candidates.join(' or ')}; run npm install (it is a devDependency)`)
  return found
}

export interface Served {
  origin: string
  stop(): Promise<void>
  /** What the child wrote to stderr, for failure messages. */
  stderr(): string
}

/**
 * Starts `runtime` serving the scenario app in `dir` (or, for workerd, `worker`); resolves once it
 * listens. Without Node compatibility in workerd unless `worker` asks for it.
 */
export async function serve(runtime: RuntimeName, dir: string, sink: string, worker: Worker = { main: 'app.js', bindings: { SINK_URL: sink } }): Promise<Served> {
  // No update checks or telemetry: nothing reaches the network. No AUTH_* of the caller's either.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('AUTH_')))
  Object.assign(env, { DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', DO_NOT_TRACK: '1', NO_COLOR: '1' })
  let child: ChildProcess
  let portFrom: Readable
  if (runtime === 'workerd') {
    const config = `${worker.main}.capnp`
    await writeFile(join(dir, config), workerdConfig(worker))
    child = spawn(binary('workerd'), ['serve', config, '--control-fd=3'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] })
    portFrom = child.stdio[3] as Readable
  } else {
    const command = {
      node: [process.execPath, 'serve-node.js', sink],
      bun: [binary('bun'), 'serve-bun.js', sink],
      // What latchkey reads of the environment (the config's fallbacks), and the loopback network.
      // PGlite: bare imports resolved from the linked node_modules as they are (`manual`: no
      // install, no registry), and read access to its package only (its WASM and data file), by
      // its real path: Deno checks that one, and a worktree's node_modules may be a link.
      deno: [
        binary('deno'), 'run', '--allow-net=127.0.0.1', '--allow-env=AUTH_SECRET,AUTH_URL,AUTH_TRUST_HOST,NODE_ENV', `--allow-read=${realpathSync(join(root, 'node_modules/@electric-sql/pglite'))}`,
        '--no-config', '--no-lock', '--no-remote', '--node-modules-dir=manual', 'serve-deno.js', sink,
      ],
    }[runtime]
    child = spawn(command[0]!, command.slice(1), { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
    portFrom = child.stdout!
  }
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk))
  const port = await new Promise<number>((resolve, reject) => {
    let text = ''
    portFrom.on('data', (chunk: Buffer) => {
      text += chunk
      const match = /"port":\s*(\d+)/.exec(text)
      if (match) resolve(Number(match[1]))
    })
    child.on('exit', (code) => reject(new Error(`${runtime} exited (${code}) before it listened:\n${stderr}`)))
    child.on('error', reject)
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    origin: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill()
      await exited
    },
  }
}
