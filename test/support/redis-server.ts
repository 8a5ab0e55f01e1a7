/**
 * A Redis of a test's own: `redis-server` on a port of the test's, without persistence (a restart
 * starts empty), never the shared one at 6379.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

/** Starts redis-server on `port` without persistence; resolves once it accepts connections. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] })
  const said: string[] = []
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s:\n${said.join('\n')}`)), 10_000)
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before it was ready (is port ${port} taken?):\n${said.join('\n')}`)))
      createInterface({ input: child.stdout! }).on('line', (line) => {
        said.push(line)
        if (/Ready to accept connections/.test(line)) {
          clearTimeout(timer)
          resolve()
        }
      })
    })
  } catch (error) {
    await stopRedis(child)
    throw error
  }
  return child
}

/** Ends it (SIGKILL unless told otherwise) and resolves once it has exited; nothing for one already gone. */
export async function stopRedis(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill(signal)
  await exited
}
