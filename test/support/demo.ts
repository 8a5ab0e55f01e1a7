/** The demo, started as `npm start` starts it, for the browser tests and scripts/screenshots.ts. */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Demo {
  /** http://localhost:PORT: the passkeys' RP ID is localhost. */
  origin: string
  /** The data folder (PGlite's database is in `db/`). */
  dataDir: string
  /** What the demo printed so far. */
  output(): string
  /** Ctrl-C, as a person stops it: answers its exit code; the data folder stays. */
  stop(): Promise<number | null>
  /** Stops it and removes its data folder. */
  close(): Promise<void>
}

/**
 * Starts the demo as `npm start` does, on free ports with a temporary data folder and the
 * embedded database. Once more if the first start exited: a port found free may be taken by
 * another test file before the demo listens on it.
 */
export async function startDemo(): Promise<Demo> {
  return launchDemo().catch((e: Error) => (/the demo exited/.test(e.message) ? launchDemo() : Promise.reject(e)))
}

async function launchDemo(): Promise<Demo> {
  const root = join(import.meta.dirname, '../..')
  const free = () =>
    new Promise<number>((resolve, reject) => {
      const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number }
        server.close(() => resolve(port))
      })
    })
  const [port, idpPort] = [await free(), await free()]
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-demo-'))
  const child = spawn(process.execPath, ['demo/start.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), IDP_PORT: String(idpPort), LATCHKEY_DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', BREACHED_PASSWORDS_URL: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    child.kill('SIGINT')
    return exited
  }
  const close = async () => {
    await stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start:\n${output}`)), 110_000)
    child.stdout!.on('data', () => /Press Ctrl-C/.test(output) && (clearTimeout(timer), resolve()))
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the demo exited (${code}):\n${output}`))))
  }).catch(async (e) => {
    await close()
    throw e
  })
  return { origin: `http://localhost:${port}`, dataDir, output: () => output, stop, close }
}
