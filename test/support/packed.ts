/**
 * The package as npm users get it: built into a staging folder (the repo's dist stays the e2e
 * suites'), packed with `npm pack`, and installed from the tarball into a new project with
 * `npm install`. Dependencies come from npm's cache, else the registry.
 */
import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { buildBrowserFiles } from '../e2e/ensure-built.js'

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
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))

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

/** `npm run build`'s steps, with every output in `outDir`. */
async function build(outDir: string): Promise<void> {
  await must(repoRoot, process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir])
  await buildBrowserFiles(outDir)
}

export async function installPacked(): Promise<PackedProject> {
  const work = await mkdtemp(join(tmpdir(), 'latchkey-packed-'))
  const stage = join(work, 'stage')
  const dir = join(work, 'app')
  await mkdir(stage)
  await mkdir(dir)
  const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { files: string[] }
  await copyFile(join(repoRoot, 'package.json'), join(stage, 'package.json'))
  for (const file of manifest.files.filter((f) => f !== 'dist')) await copyFile(join(repoRoot, file), join(stage, file))
  await build(join(stage, 'dist'))
  const tarball = join(work, (await must(work, 'npm', ['pack', stage, '--pack-destination', work, '--silent'])).trim().split('\n').pop()!)
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
