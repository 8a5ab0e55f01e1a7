/**
 * PGlite is a database for one process: a second process on the same folder (`latchkey migrate`
 * while the server runs) writes over the first one's files. So whoever opens the folder first
 * holds a lock file in it, naming the process; a second opener is refused with that name.
 */
import { randomUUID } from 'node:crypto'
import { readFileSync, unlinkSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AdapterError } from '../errors.js'

export const LOCK_FILE = 'latchkey.lock'

interface Holder {
  pid: number
  command: string
  since: string
  /** Tells this process's own lock from a dead one's that had the same pid (a restarted container). */
  token: string
}

export interface EmbeddedLock {
  /** Removes the lock file; a second call does nothing. */
  release(): Promise<void>
}

/** Lock files this process holds, by token: a lock with our pid but not in here is a dead process's. */
const held = new Set<string>()

/**
 * Takes the folder's lock, or throws `DatabaseLocked` naming the process that has it. The file is
 * created with `wx`, so of two openers exactly one creates it; a lock whose process is gone is
 * taken over. Released by `release()`, and when the process exits (a killed one leaves it stale).
 */
export async function lockEmbeddedDir(dir: string): Promise<EmbeddedLock> {
  const file = join(dir, LOCK_FILE)
  const holder: Holder = { pid: process.pid, command: commandLine(), since: new Date().toISOString(), token: randomUUID() }
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(file, JSON.stringify(holder), { flag: 'wx' })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const other = await readHolder(file)
    if (other && isRunning(other)) throw lockedError(dir, file, other)
    if (attempt > 0) throw lockedError(dir, file, other)
    // Stale: its process is gone (or the file is unreadable). Remove it only if it is still that one.
    removeIf(file, other?.token)
  }
  held.add(holder.token)
  const releaseOnExit = () => removeIf(file, holder.token)
  process.once('exit', releaseOnExit)
  return {
    async release() {
      if (!held.delete(holder.token)) return
      process.off('exit', releaseOnExit)
      removeIf(file, holder.token)
    },
  }
}

async function readHolder(file: string): Promise<Holder | null> {
  // Another opener writes right after creating the file: an empty read gets one more chance.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const value = JSON.parse(await readFile(file, 'utf8')) as Partial<Holder>
      if (typeof value.pid === 'number' && typeof value.token === 'string') {
        return { pid: value.pid, token: value.token, command: String(value.command ?? 'unknown'), since: String(value.since ?? 'unknown') }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return null
}

function isRunning(holder: Holder): boolean {
  if (holder.pid === process.pid) return held.has(holder.token)
  try {
    process.kill(holder.pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Deletes the lock file when it still carries `token` (any unreadable one when `token` is undefined).
 * Synchronous: it also runs in the process's `exit` event, where nothing asynchronous completes.
 */
function removeIf(file: string, token: string | undefined): void {
  try {
    const current = readFileSync(file, 'utf8')
    if (token !== undefined && !current.includes(token)) return
    unlinkSync(file)
  } catch {
    // Already gone.
  }
}

function lockedError(dir: string, file: string, holder: Holder | null): AdapterError {
  const who = holder ? `process ${holder.pid} (${holder.command}), since ${holder.since}` : 'another process'
  return new AdapterError(
    'DatabaseLocked',
    `The embedded database in ${dir} is in use by ${who}. PGlite allows one process per folder: stop that process, ` +
      `or run "latchkey migrate" while the server is stopped (the server migrates on start anyway). ` +
      `If that process is not running, delete ${file}.`,
  )
}

/** The command that holds the lock, as `ps` would show it, with any URL's password hidden. */
function commandLine(): string {
  const text = process.argv.join(' ').replace(/(\/\/[^:/@\s]*:)[^@\s]*@/g, '$1***@')
  return text.length > 200 ? `${text.slice(0, 197)}...` : text
}
