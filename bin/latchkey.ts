#!/usr/bin/env node
/**
 * latchkey's command line: `migrate`, so a deploy step (or a developer) can create or update the
 * tables before the servers start, instead of relying on the first request; and `secret`, which
 * writes a random AUTH_SECRET into .env (as Auth.js's `npx auth secret` does); and `doctor`, which
 * says what the app's configuration lacks for production (bin/doctor.ts). `migrate` and `doctor`
 * first read .env, as the app would (bin/env-file.ts). docs/cli.md is the user's page.
 *
 *   npx tsx bin/latchkey.ts migrate [--database-url URL] [--dir DIR] [--env PATH]
 *   npx tsx bin/latchkey.ts secret [--env PATH] [--force]
 *   npx tsx bin/latchkey.ts doctor MODULE [--env PATH]
 */
import { randomBytes } from 'node:crypto'
import { lstat, readFile, readlink, rename, rm, writeFile } from 'node:fs/promises'
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { DEFAULT_EMBEDDED_DIR, openDatabase } from '../src/adapters/postgres/index.js'
import { doctorCommand } from './doctor.js'
import { describeLoaded, loadEnvFile, type LoadedEnv } from './env-file.js'

export const help = `Usage: latchkey <command> [options]

Commands:
  migrate               Create or update latchkey's tables, then exit. The embedded database
                        opens in one process at a time: run it while the server is stopped
                        (the server migrates on start anyway).
  secret                Write a random AUTH_SECRET into .env (kept if one is there, unless --force).
  doctor MODULE         Check the app for production: imports MODULE, the app's server file
                        (or a module exporting the configuration passed to Latchkey), and says
                        what each Latchkey instance it creates lacks or has unsafe, with the fix;
                        exits 1 when anything is an error. A server it starts listens on a free
                        loopback port instead, and is closed after the check.

migrate and doctor first read .env from the working directory when there is one; a variable
already set in the environment is kept.

Options:
  --database-url URL    (migrate) A postgres:// URL. Default: the DATABASE_URL environment
                        variable, else the embedded database (PGlite) in a folder on disk.
  --dir DIR             (migrate) Folder of the embedded database. Default: ${DEFAULT_EMBEDDED_DIR}
  --env PATH            The file secret writes, and migrate and doctor read. Default: .env
                        (--env-file is the same, but node itself refuses to start when the
                        file named after it does not exist yet.)
  --force               (secret) Replace an AUTH_SECRET the file already has.
  --config MODULE       (doctor) The same as MODULE.
  -h, --help            Show this help.

More: docs/cli.md in latchkey's repository.
`

export interface CliIo {
  out(line: string): void
  err(line: string): void
  env: Record<string, string | undefined>
}

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
}

interface Parsed {
  command?: string
  /** What follows the command: doctor's module. */
  args: string[]
  help: boolean
  force: boolean
  options: Record<string, string>
}

const VALUE_OPTIONS = new Set(['--database-url', '--dir', '--env', '--env-file', '--config'])
/**
 * Other names of an option. Node reads `--env-file PATH` even among a script's own arguments and
 * exits when PATH does not exist (nodejs/node#54232), so `secret` into a new file needs `--env`.
 */
const ALIASES: Record<string, string> = { '--env-file': '--env' }
const commands = ['migrate', 'secret', 'doctor']

function parse(argv: string[]): Parsed {
  const parsed: Parsed = { args: [], help: false, force: false, options: {} }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-h' || arg === '--help') {
      parsed.help = true
    } else if (arg === '--force') {
      parsed.force = true
    } else if (arg.startsWith('-')) {
      const [flag, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined]
      if (!VALUE_OPTIONS.has(flag)) throw new Error(`unknown option "${flag}"; expected one of: ${[...VALUE_OPTIONS].join(', ')}, --force, --help`)
      const value = inline ?? argv[++i]
      if (value === undefined || value === '') throw new Error(`option ${flag} expects a value, got nothing`)
      parsed.options[ALIASES[flag] ?? flag] = value
    } else if (parsed.command === undefined) {
      parsed.command = arg
    } else if (parsed.command === 'doctor' && parsed.args.length === 0) {
      parsed.args.push(arg)
    } else {
      throw new Error(`unexpected argument "${arg}" after the command "${parsed.command}"`)
    }
  }
  return parsed
}

/** Runs the CLI and returns the exit code; separate from process handling so tests can call it. */
export async function run(argv: string[], io: CliIo = defaultIo): Promise<number> {
  let parsed: Parsed
  try {
    parsed = parse(argv)
  } catch (error) {
    io.err(`latchkey: ${(error as Error).message}`)
    io.err('Run "latchkey --help" for usage.')
    return 2
  }
  if (parsed.help || parsed.command === undefined) {
    ;(parsed.help ? io.out : io.err)(help)
    return parsed.help ? 0 : 2
  }
  if (!commands.includes(parsed.command)) {
    io.err(`latchkey: unknown command "${parsed.command}"; expected one of: ${commands.join(', ')}`)
    io.err('Run "latchkey --help" for usage.')
    return 2
  }
  const envFile = parsed.options['--env']
  if (parsed.command === 'secret') return secretCommand(envFile ?? '.env', parsed.force, io)
  const read = await readEnvFile(envFile, io)
  if (read === false) return 1
  if (parsed.command === 'doctor') {
    const [module] = parsed.args
    if (module && parsed.options['--config'] && module !== parsed.options['--config']) {
      io.err(`latchkey doctor: two modules given, ${module} and --config ${parsed.options['--config']}; give one`)
      return 2
    }
    return doctorCommand(module ?? parsed.options['--config'], io)
  }
  return migrateCommand(parsed.options, read, io)
}

/**
 * Reads the env file into `io.env` before a command that reads the environment, and says so on
 * stderr: `.env` when there is one, or the `--env` given (which must exist). Answers what
 * was read (null: no .env), or false when the file could not be read.
 */
async function readEnvFile(given: string | undefined, io: CliIo): Promise<LoadedEnv | null | false> {
  try {
    const read = await loadEnvFile(given ?? '.env', io.env, given !== undefined)
    if (read) {
      io.err(describeLoaded(read))
      for (const problem of read.problems) io.err(`latchkey: ${read.file} ${problem}; skipped`)
    }
    return read
  } catch (error) {
    io.err(`latchkey: could not read ${given ?? '.env'}: ${(error as Error).message}`)
    return false
  }
}

/**
 * Writes `AUTH_SECRET=<44 random base64 characters>` into the env file; the secret itself is never
 * printed. The file is written anew and renamed over the old one, so it is 0600 whatever the old
 * one's mode was; a symbolic link is refused, never written through to its target.
 */
async function secretCommand(file: string, force: boolean, io: CliIo): Promise<number> {
  let text = ''
  try {
    if ((await lstat(file)).isSymbolicLink()) {
      io.err(`latchkey secret: ${file} is a symbolic link (to ${await readlink(file)}); refusing to write through it. Pass the real file with --env, or replace the link with a file.`)
      return 1
    }
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      io.err(`latchkey secret: could not read ${file}: ${(error as Error).message}`)
      return 1
    }
  }
  const line = /^AUTH_SECRET=.*$/m
  if (line.test(text) && !force) {
    io.out(`${file} already sets AUTH_SECRET; left as it is (--force replaces it, which signs everyone out).`)
    if ((await lstat(file)).mode & 0o077) io.err(`latchkey secret: ${file} can be read by other users of this machine; run chmod 600 ${file}.`)
    return 0
  }
  const entry = `AUTH_SECRET=${randomBytes(33).toString('base64')}`
  const next = line.test(text) ? text.replace(line, entry) : `${text}${text && !text.endsWith('\n') ? '\n' : ''}${entry}\n`
  // 'wx': a new file only, so a link planted at the temporary name is not followed either.
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
  try {
    await writeFile(temp, next, { mode: 0o600, flag: 'wx' })
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    io.err(`latchkey secret: could not write ${file}: ${(error as Error).message}`)
    return 1
  }
  io.out(`Wrote a random AUTH_SECRET (44 characters) to ${file}, readable by its owner only. Keep the file out of version control.`)
  return 0
}

async function migrateCommand(options: Record<string, string>, read: LoadedEnv | null, io: CliIo): Promise<number> {
  // '' (not undefined) when there is no URL: openDatabase would otherwise read process.env itself.
  const url = options['--database-url'] ?? io.env.DATABASE_URL ?? ''
  if (!url.trim()) {
    // Said first, so a missing PGlite below reads as what follows from it, not as the cause.
    const where = read ? `neither in the environment nor in ${read.file}` : 'not in the environment, and there is no .env here'
    const state = io.env.DATABASE_URL === undefined ? `unset (${where})` : 'empty'
    io.err(`latchkey migrate: DATABASE_URL is ${state}, so the embedded database (PGlite) in ${options['--dir'] ?? DEFAULT_EMBEDDED_DIR} is used; for a PostgreSQL server set DATABASE_URL or pass --database-url.`)
  }
  try {
    const db = await openDatabase(url, { dir: options['--dir'] })
    try {
      const { from, to, applied } = db.migration
      io.out(`Database: ${db.location}`)
      if (applied.length === 0) {
        io.out(`Schema already at version ${to}; nothing to do.`)
      } else {
        for (const migration of applied) io.out(`Applied migration ${migration.version}: ${migration.name}`)
        io.out(`Schema migrated from version ${from} to ${to}.`)
      }
    } finally {
      await db.close()
    }
    return 0
  } catch (error) {
    io.err(`latchkey migrate failed: ${(error as Error).message}`)
    return 1
  }
}

/**
 * Whether node was started on this file. npm runs a bin through a symlink (node_modules/.bin/latchkey,
 * and npx through that), so the paths are compared after resolving links.
 */
function isMain(): boolean {
  const script = process.argv[1]
  if (!script) return false
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

if (isMain()) {
  run(process.argv.slice(2)).then((code) => {
    // Exit once the output is written: the module doctor imported may keep timers, pools or
    // sockets open that doctor cannot reach, and the process must not wait on them.
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
  })
}
