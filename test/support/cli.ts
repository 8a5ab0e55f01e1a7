/**
 * `npx latchkey …` as a user runs it: bin/latchkey.ts compiled to one JavaScript file (esbuild,
 * its packages left to node_modules, as dist/bin/latchkey.js leaves them) and run by plain node,
 * with no TypeScript loader, in a project folder of the test's, with an environment that has
 * only what the test gives (no DATABASE_URL, AUTH_SECRET or NODE_ENV of the test run's).
 */
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'

const root = join(import.meta.dirname, '../..')

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

let compiled: Promise<{ dir: string; bin: string }> | undefined

/** The compiled CLI, made once per test file; beside it a node_modules that is the repo's, for the packages it imports. */
function compiledCli(): Promise<{ dir: string; bin: string }> {
  compiled ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'latchkey-bin-'))
    await symlink(join(root, 'node_modules'), join(dir, 'node_modules'))
    const bin = join(dir, 'latchkey.mjs')
    await build({ entryPoints: [join(root, 'bin/latchkey.ts')], outfile: bin, bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'error' })
    return { dir, bin }
  })()
  return compiled
}

/** A new project folder: package.json (an ES module project), node_modules (the repo's), and the given files. */
export async function cliProject(files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-app-'))
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'))
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true })
    await writeFile(join(dir, name), text)
  }
  return dir
}

export interface CliOptions {
  cwd: string
  env?: Record<string, string>
  /** Arguments for node itself, before the CLI (an --import of the test's). */
  nodeArgs?: string[]
  /** Milliseconds the process may take to exit; past them it is killed and the run rejects. */
  within?: number
}

/** Runs the CLI and resolves once the process has exited. */
export async function runCli(args: string[], { cwd, env = {}, nodeArgs = [], within = 90_000 }: CliOptions): Promise<CliRun> {
  const { bin } = await compiledCli()
  const child = spawn(process.execPath, [...nodeArgs, bin, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`latchkey ${args.join(' ')} had not exited after ${within} ms\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, within)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** Removes what the helper and the tests made. */
export async function removeCli(dirs: string[]): Promise<void> {
  const made = compiled ? [(await compiled).dir] : []
  await Promise.all([...made, ...dirs].map((dir) => rm(dir, { recursive: true, force: true })))
}
