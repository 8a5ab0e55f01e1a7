/**
 * A PostgreSQL cluster of a test's own (Debian's postgresql-common tools), for tests that restart
 * or stop the database under running servers: never the shared one at 5432. Trust auth on
 * loopback, the `postgres` database. `drop()` stops and removes it; a cluster of the same name
 * left by a killed run is dropped first. Needs root (as CI runs) and PostgreSQL's server binaries.
 * `createReplica` adds a streaming replica of one (pg_basebackup -R), which `promote()` makes a
 * primary, for a failover.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import pg from 'pg'

const run = promisify(execFile)

export interface PgCluster {
  url: string
  port: number
  /** `pg_ctlcluster ... restart -m fast`: every connection is ended, the server is down until it has started again. */
  restart(): Promise<void>
  /** `pg_ctlcluster ... stop -m fast`: down, as a primary that failed (its data kept). */
  stop(): Promise<void>
  /** The postmaster's process id, while it runs (every server process is its child). */
  pid(): Promise<number>
  /** Stops the cluster and removes its data. */
  drop(): Promise<void>
}

export interface PgReplica extends PgCluster {
  /**
   * Resolves once its WAL receiver streams from the primary. A primary stopped cleanly sends a
   * streaming replica all its WAL first; one that has not reconnected after a restart of the
   * primary has missed what came since (what a failover manager checks before it promotes).
   */
  streaming(): Promise<void>
  /** Resolves once it has replayed all the WAL it received: its reads see every write it got. */
  replayed(): Promise<void>
  /** `pg_ctlcluster ... promote`: resolves once it takes writes (`pg_is_in_recovery()` is false). */
  promote(): Promise<void>
}

const ctl = (version: string, name: string, ...args: string[]) => run('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, ...args])

export async function createPgCluster(name: string, port: number, version = '15'): Promise<PgCluster> {
  const binaries = `/usr/lib/postgresql/${version}/bin`
  if (!existsSync(binaries)) throw new Error(`createPgCluster: PostgreSQL ${version}'s server binaries are not in ${binaries}; install them (apt-get install postgresql-${version})`)
  if (process.getuid?.() !== 0) throw new Error('createPgCluster: pg_createcluster and pg_ctlcluster need root here (as CI runs); run the test as root')
  await dropCluster(version, name)
  await create(version, name, port)
  await ctl(version, name, 'start')
  return handle(version, name, port)
}

/** A test's cluster need not survive a power cut: initdb skips its fsync (a second or more on a busy machine). */
const create = (version: string, name: string, port: number, ...settings: string[]) =>
  run('pg_createcluster', [version, name, '--port', String(port), ...settings.flatMap((setting) => ['-o', setting]), '--', '--auth=trust', '--no-sync'])

/**
 * A streaming replica of `primary`, as its own cluster on `port`: created, its data replaced by a
 * `pg_basebackup -R` of the primary (standby.signal and primary_conninfo written), started; it
 * answers reads, and writes fail with 25006 read-only until `promote()`. The primary may still be
 * starting: the replica's own cluster is made meanwhile.
 */
export async function createReplica(starting: PgCluster | Promise<PgCluster>, name: string, port: number, version = '15'): Promise<PgReplica> {
  await dropCluster(version, name)
  // After a restart of the primary, it connects again within 100 ms (PostgreSQL's default waits 5 s).
  await create(version, name, port, 'wal_retrieve_retry_interval=100ms')
  const data = dataDir(version, name)
  await run('find', [data, '-mindepth', '1', '-delete'])
  const primary = await starting
  await run('runuser', ['-u', 'postgres', '--', 'pg_basebackup', '-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '-c', 'fast'])
  await ctl(version, name, 'start')
  const replica = await handle(version, name, port)
  const until = async (what: string, sql: string) => {
    for (let i = 0; i < 300; i++) {
      if ((await ask<{ yes: boolean }>(replica.url, `SELECT (${sql}) AS yes`))?.yes) return
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`createReplica: ${name} not ${what} within 15 s`)
  }
  return {
    ...replica,
    streaming: () => until('streaming', "SELECT status = 'streaming' FROM pg_stat_wal_receiver"),
    replayed: () => until('replayed', 'pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn()'),
    promote: async () => {
      await ctl(version, name, 'promote')
      await until('promoted', 'NOT pg_is_in_recovery()')
    },
  }
}

const dataDir = (version: string, name: string) => `/var/lib/postgresql/${version}/${name}`

async function handle(version: string, name: string, port: number): Promise<PgCluster> {
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  await answers(url)
  return {
    url,
    port,
    restart: async () => {
      await ctl(version, name, 'restart', '-m', 'fast')
      await answers(url)
    },
    stop: async () => {
      await ctl(version, name, 'stop', '-m', 'fast')
    },
    pid: async () => Number((await readFile(`${dataDir(version, name)}/postmaster.pid`, 'utf8')).split('\n')[0]),
    drop: () => dropCluster(version, name),
  }
}

async function ask<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T | undefined> {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    return (await client.query<T>(sql)).rows[0]
  } finally {
    await client.end().catch(() => {})
  }
}

async function dropCluster(version: string, name: string): Promise<void> {
  const { stdout } = await run('pg_lsclusters', ['--no-header'])
  if (!stdout.split('\n').some((line) => line.split(/\s+/)[0] === version && line.split(/\s+/)[1] === name)) return
  await run('pg_dropcluster', ['--stop', version, name])
}

/** Waits until the server takes a query (a start returns before it does, now and then). */
async function answers(url: string): Promise<void> {
  let last: unknown
  for (let i = 0; i < 100; i++) {
    const client = new pg.Client({ connectionString: url })
    try {
      await client.connect()
      await client.query('SELECT 1')
      return
    } catch (error) {
      last = error
      await new Promise((resolve) => setTimeout(resolve, 100))
    } finally {
      await client.end().catch(() => {})
    }
  }
  throw new Error(`createPgCluster: ${url} did not answer within 10 s: ${(last as Error)?.message}`)
}
