/**
 * A test server of a plugin as its own process (test/plugins/*-server.ts), for tests that run two
 * of them on one database: started with `node --import tsx <script>`, it prints one JSON object a
 * line on stdout, `{"listening":port}` once, then `{"to":…,"text":…}` per message it sent.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

export interface PluginProcess {
  origin: string
  child: ChildProcess
  /** The messages (texts, emails) it sent, in order. */
  sent: Array<{ to: string; text: string }>
}

export async function startPluginProcess(script: string, env: Record<string, string>): Promise<PluginProcess> {
  const name = script.split('/').at(-1)
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const sent: PluginProcess['sent'] = []
  const stderr: string[] = []
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line))
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 30 s:\n${stderr.join('\n')}`)), 30_000)
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${stderr.join('\n')}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as { listening?: number; to?: string; text?: string }
      if (message.to) sent.push({ to: message.to, text: message.text! })
      if (message.listening) {
        clearTimeout(timer)
        resolve(message.listening)
      }
    })
  })
  return { origin: `http://127.0.0.1:${port}`, child, sent }
}

export async function stopPluginProcess(server: PluginProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGTERM')
  await exited
}
