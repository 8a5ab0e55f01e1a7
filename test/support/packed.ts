/**
 * The package as npm users get it, two ways: `installPacked()` copies the working tree to a staging
 * folder (so the repo's dist stays the e2e suites'), runs `npm pack` there (its `prepare` builds) and
 * installs the tarball into a new project; `installFromGit()` commits the same copy in a temporary
 * repository, clones it bare and installs its `git+file://` URL, so npm clones, installs the dev
 * dependencies and runs `prepare` as it does for any git URL. Dependencies come from npm's cache,
 * else the registry.
 */
import { spawn } from 'node:child_process'
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { inject } from 'vitest'

export const repoRoot = join(import.meta.dirname, '../..')

export interface Run {
  code: number
  stdout: string
  stderr: string
}

export interface PackedProject {
  /** The project that installed the package. */
  dir: string
  /** The tarball `npm pack` made (installPacked), or the bare repository's URL (installFromGit). */
  source: string
  /** What `npm install` printed on stderr (npm's warnings). */
  installLog: string
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
export const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'DATABASE_URL'))

/**
 * A command in `cwd`, its standard input closed (a tool that would ask a question reads end of
 * input instead of waiting for an answer no one gives), killed with its children after `limitMs`,
 * so a stuck install fails with what it printed instead of as a silent hook time-out.
 */
export function run(cwd: string, command: string, args: string[], env: Record<string, string> = {}, limitMs = 540_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...cleanEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    let timedOut = false
    const started = Date.now()
    const lastLine = () => (stderr.trim() || stdout.trim()).split('\n').pop()?.slice(0, 200) ?? ''
    const progress = setInterval(() => console.log(`[packed] still running after ${Math.round((Date.now() - started) / 1000)} s: ${command} ${args.join(' ')} (last output: ${lastLine() || 'none'})`), 60_000)
    const timer = setTimeout(() => {
      timedOut = true
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
    }, limitMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      clearInterval(progress)
      reject(error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      clearInterval(progress)
      if (timedOut) stderr += `\n(${command} ${args.join(' ')} was stopped after ${limitMs / 1000} s)`
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr })
    })
  })
}

/** `what` timed, its duration printed: the slow tier's log shows which install step took the time. */
async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now()
  const result = await work()
  console.log(`[packed] ${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return result
}

/** `run`, its standard output; a non-zero exit throws with everything the command printed. */
export async function must(cwd: string, command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const result = await run(cwd, command, args, env)
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.code}) in ${cwd}:\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

/** The working tree's files (tracked, and new ones not ignored) into `stage`. */
async function copyWorkingTree(stage: string): Promise<void> {
  const files = (await must(repoRoot, 'git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'])).split('\0').filter(Boolean)
  for (const file of files) {
    // Deleted in the working tree but not yet in the index, or not a file (a socket or pipe a test left would block a copy).
    const kind = await lstat(join(repoRoot, file)).catch(() => undefined)
    if (!kind || !(kind.isFile() || kind.isSymbolicLink())) continue
    await mkdir(dirname(join(stage, file)), { recursive: true })
    await cp(join(repoRoot, file), join(stage, file), { verbatimSymlinks: true })
  }
}

/** A new project in `work/app` with `manifest`'s fields and `spec` installed. */
async function installInto(work: string, spec: string, manifest: object, flags: string[] = []): Promise<PackedProject> {
  const dir = join(work, 'app')
  await mkdir(dir)
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'packed-app', private: true, type: 'module', ...manifest }))
  const installed = await step(`npm install ${spec.startsWith('/') ? 'the tarball' : spec}`, () =>
    run(dir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn', ...flags, spec]),
  )
  if (installed.code !== 0) throw new Error(`npm install ${spec} failed (${installed.code}):\n${installed.stdout}\n${installed.stderr}`)
  return {
    dir,
    source: spec,
    installLog: installed.stderr,
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

/** `npm pack` of the working tree (its `prepare` script builds dist), installed from the tarball. */
export async function installPacked(): Promise<PackedProject> {
  const work = await mkdtemp(join(tmpdir(), 'latchkey-packed-'))
  return installInto(work, await packOnce(work), {})
}

/**
 * The tarball of the working tree. Four files install it; within a run (test/support/pack-dir.ts
 * gives the run a folder) the first to ask packs, and the others wait for its tarball.
 */
async function packOnce(work: string): Promise<string> {
  const shared = inject('packDir')
  if (!shared) return pack(work)
  const answer = join(shared, 'tarball')
  try {
    await mkdir(join(shared, 'lock'))
  } catch {
    // The packer's own commands are bounded (run), so its answer comes; this bound only guards a packer that died.
    for (const until = Date.now() + 600_000; Date.now() < until; ) {
      const text = await readFile(answer, 'utf8').catch(() => undefined)
      if (text !== undefined) return text.startsWith('/') ? text : Promise.reject(new Error(`the run's npm pack failed: ${text}`))
      await sleep(500)
    }
    throw new Error(`no tarball in ${shared} after 600 s: the file that took the lock never wrote its answer`)
  }
  try {
    const tarball = await pack(shared)
    await writeFile(`${answer}.part`, tarball)
    await rename(`${answer}.part`, answer)
    return tarball
  } catch (error) {
    await writeFile(`${answer}.part`, String(error))
    await rename(`${answer}.part`, answer)
    throw error
  }
}

/** `npm pack` of a copy of the working tree, into `dir`; the tarball's path. */
async function pack(dir: string): Promise<string> {
  const stage = join(dir, 'stage')
  await mkdir(stage)
  await step('copy of the working tree', () => copyWorkingTree(stage))
  await symlink(join(repoRoot, 'node_modules'), join(stage, 'node_modules'), 'dir')
  const packed = await step('npm pack (its prepare builds)', () => must(stage, 'npm', ['pack', '--pack-destination', dir, '--silent']))
  const tarball = join(dir, packed.trim().split('\n').pop()!)
  await rm(stage, { recursive: true, force: true })
  return tarball
}

/**
 * The working tree committed in a throwaway repository (never this one), cloned bare, and its
 * `git+file://` URL installed the way the README says: approved in the app's `allowScripts`.
 * `--strict-allow-scripts` turns any script npm would only warn about into a failed install.
 */
export async function installFromGit(): Promise<PackedProject> {
  const work = await mkdtemp(join(tmpdir(), 'latchkey-git-'))
  const stage = join(work, 'stage')
  await mkdir(stage)
  await copyWorkingTree(stage)
  const git = (args: string[]) => must(stage, 'git', ['-c', 'user.name=latchkey test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', ...args])
  await git(['init', '--quiet'])
  await git(['add', '--all'])
  await git(['commit', '--quiet', '--no-verify', '--message', 'the working tree'])
  const bare = join(work, 'latchkey.git')
  await git(['clone', '--quiet', '--bare', stage, bare])
  const url = `git+file://${bare}`
  return installInto(work, url, { allowScripts: { [url]: true } }, ['--strict-allow-scripts'])
}

/** The files of an installed package, relative to its folder, as npm lists a tarball's (its own node_modules left out). */
export async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('node_modules/'))
    .sort()
}
