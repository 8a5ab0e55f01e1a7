/** Starts demo/idp-process.ts as a child process and waits for its issuer URL. */
import { fork, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Settings } from './config.js'

export interface IdpChild {
  issuer: string
  stop(): Promise<void>
}

/** oidc-provider's notes about development use, which the demo knows about. */
const quiet = /^oidc-provider WARNING/

export function startIdpChild(settings: Settings): Promise<IdpChild> {
  const child: ChildProcess = fork(settings.idpProcess.entry, [], {
    execArgv: settings.idpProcess.execArgv,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    // The port, the origin and the client come from the same settings (demo/config.ts) there.
    env: { ...process.env, IDP_KEY_FILE: join(settings.dataDir, 'idp-key.json') },
  })
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => quiet.test(line) || console.log(`[idp] ${line}`))
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  return new Promise((resolve, reject) => {
    child.once('message', (m: { issuer?: string; error?: string }) => (m.issuer ? resolve({ issuer: m.issuer, stop }) : reject(new Error(`Demo IdP: ${m.error}`))))
    child.once('exit', (code) => reject(new Error(`Demo IdP exited (${code}) before it was ready`)))
  })
}
