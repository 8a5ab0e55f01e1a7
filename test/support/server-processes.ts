/**
 * Starting and stopping test/support/server-process.ts from a test: the process's port, the
 * emails and codes it printed, its stderr lines, and how it exited.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

const script = new URL('./server-process.ts', import.meta.url).pathname

/** An email the process sent: a sign-in link (`kind` 'email') or a Password email (its kind). */
export interface SentMail {
  kind: string
  to: string
  url?: string
  code?: string
}

export interface ServerProcess {
  origin: string
  port: number
  child: ChildProcess
  emails: string[]
  /** The one-time code of each email, in step with `emails`. */
  codes: string[]
  /** Every email, with its address, in the order sent; `onMail` listeners hear each as it comes. */
  mail: SentMail[]
  onMail: Set<(mail: SentMail) => void>
  stderr: string[]
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>
}

export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const emails: string[] = []
  const codes: string[] = []
  const mail: SentMail[] = []
  const onMail = new Set<(mail: SentMail) => void>()
  const stderr: string[] = []
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line))
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-process did not start within 30 s; stderr:\n${stderr.join('\n')}`)), 30_000)
    void exited.then((code) => reject(new Error(`server-process exited with code ${code} before listening; stderr:\n${stderr.join('\n')}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as { listening?: number; email?: string; code?: string; mail?: string; to?: string; url?: string }
      if (message.email) emails.push(message.email)
      if (message.email && message.code) codes.push(message.code)
      if (message.to) {
        const sent = { kind: message.mail ?? 'email', to: message.to, url: message.url ?? message.email, code: message.code }
        mail.push(sent)
        for (const listener of onMail) listener(sent)
      }
      if (message.listening) {
        clearTimeout(timer)
        resolve(message.listening)
      }
    })
  })
  return { origin: `http://127.0.0.1:${port}`, port, child, emails, codes, mail, onMail, stderr, exited }
}

/** SIGTERM, then its exit code once it has ended; nothing for a process already gone. */
export async function stopServer(server: ServerProcess | undefined): Promise<number | null | undefined> {
  if (!server) return undefined
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM')
  return server.exited
}
