/**
 * The package as npm users get it: the working tree copied to a staging folder (so the repo's dist
 * stays the e2e suites'), `npm run build` and `npm pack` there, and the tarball installed into a
 * new project with `npm install`. Dependencies come from npm's cache, else the registry.
 */
import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

export const repoRoot = join(import.meta.dirname, '../..')
const exec = promisify(execFile)

export interface Run {
  code: number
  stdout: string
  stderr: string
}

export interface PackedProject {
  /** The project that installed the tarball. */
  dir: string
  /** Runs a command in the project; never throws on a non-zero exit. */
  run(command: string, args: string[], env?: Record<string, string>): Promise<Run>
  /** Puts packages the repo has installed (peers, types) into the project, as a user would install them. */
  link(...names: string[]): Promise<void>
  remove(): Promise<void>
}

/**
 * The environment without what npm puts there for a script (`npm test` sets npm_config_local_prefix
 * to this repo, which would point a nested `npm install` at the repo's own node_modules).
 */
// Nor the test run's own database: the installed CLI must find its defaults as a new project would.
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'DATABASE_URL'))

async function run(cwd: string, command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd, env: { ...cleanEnv, ...env }, maxBuffer: 16 << 20 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string; message: string }
    if (typeof e.code !== 'number') throw error
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message }
  }
}

async function must(cwd: string, command: string, args: string[]): Promise<string> {
  const result = await run(cwd, command, args)
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.code}):\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

/** The working tree's files (tracked, and new ones not ignored) into `stage`, with the repo's node_modules. */
async function copyWorkingTree(stage: string): Promise<void> {
  const files = (await must(repoRoot, 'git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'])).split('\0').filter(Boolean)
  for (const file of files) await cp(join(repoRoot, file), join(stage, file), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error // deleted in the working tree, not yet in the index
  })
  await symlink(join(repoRoot, 'node_modules'), join(stage, 'node_modules'), 'dir')
}

export async function installPacked(): Promise<PackedProject> {
  const work = await mkdtemp(join(tmpdir(), 'latchkey-packed-'))
  const stage = join(work, 'stage')
  const dir = join(work, 'app')
  await mkdir(stage)
  await mkdir(dir)
  await copyWorkingTree(stage)
  await must(stage, 'npm', ['run', 'build', '--silent'])
  const tarball = join(work, (await must(stage, 'npm', ['pack', '--pack-destination', work, '--silent'])).trim().split('\n').pop()!)
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'packed-app', private: true, type: 'module' }))
  await must(dir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball])
  return {
    dir,
    run: (command, args, env) => run(dir, command, args, env),
    async link(...names) {
      for (const name of names) {
        const target = join(dir, 'node_modules', name)
        await mkdir(dirname(target), { recursive: true })
        await symlink(join(repoRoot, 'node_modules', name), target, 'dir').catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error
        })
      }
    },
    remove: () => rm(work, { recursive: true, force: true }),
  }
}
