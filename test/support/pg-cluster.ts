/**
 * A PostgreSQL cluster of a test's own (Debian's postgresql-common tools), for tests that restart
 * or stop the database under running servers: never the shared one at 5432. Trust auth on
 * loopback, the `postgres` database. `drop()` stops and removes it; a cluster of the same name
 * left by a killed run is dropped first. Needs root (as CI runs) and PostgreSQL's server binaries.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { promisify } from 'node:util'
import pg from 'pg'

const run = promisify(execFile)

export interface PgCluster {
  url: string
  /** `pg_ctlcluster ... restart -m fast`: every connection is ended, the server is down until it has started again. */
  restart(): Promise<void>
  /** Stops the cluster and removes its data. */
  drop(): Promise<void>
}

const ctl = (version: string, name: string, ...args: string[]) => run('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, ...args])

export async function createPgCluster(name: string, port: number, version = '15'): Promise<PgCluster> {
  const binaries = `/usr/lib/postgresql/${version}/bin`
  if (!existsSync(binaries)) throw new Error(`createPgCluster: PostgreSQL ${version}'s server binaries are not in ${binaries}; install them (apt-get install postgresql-${version})`)
  if (process.getuid?.() !== 0) throw new Error('createPgCluster: pg_createcluster and pg_ctlcluster need root here (as CI runs); run the test as root')
  await dropCluster(version, name)
  await run('pg_createcluster', [version, name, '--port', String(port), '--', '--auth=trust'])
  await ctl(version, name, 'start')
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  await answers(url)
  return {
    url,
    restart: async () => {
      await ctl(version, name, 'restart', '-m', 'fast')
      await answers(url)
    },
    drop: () => dropCluster(version, name),
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
