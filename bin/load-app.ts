/**
 * How `latchkey doctor` loads the app's module, the server file itself when the configuration is
 * inline there, as the guides write it:
 * - it watches for the Latchkey instances the import creates (src/server/kernel/instances.ts);
 * - a server the module starts listens on a free loopback port instead of its own, so a dev
 *   server already on that port is not in the way and nothing is reachable from outside; doctor
 *   closes it after the check;
 * - a TypeScript module that node cannot load by itself (before Node 22.18) is loaded through
 *   the app's own tsx, when it has one.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Server } from 'node:net'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { watchInstances, type WatchedInstance } from '../src/server/kernel/instances.js'

export interface LoadedApp {
  /** The Latchkey instances created while the module loaded, in order. */
  instances: WatchedInstance[]
  /** The module's exports; empty when it failed to load. */
  exports: Record<string, unknown>
  /** Why the import failed, if it did. */
  failure?: Error
  /** How many servers the module started (each moved to a loopback port). */
  listened: number
  /** Closes the servers the module started and puts `listen` back. */
  close(): Promise<void>
}

export async function loadApp(path: string): Promise<LoadedApp> {
  const file = resolve(path)
  if (!existsSync(file)) throw new Error(`there is no file ${file}`)
  const watch = watchInstances()
  const servers = redirectListen()
  const app: LoadedApp = {
    instances: watch.instances,
    exports: {},
    get listened() {
      return servers.started.length
    },
    async close() {
      servers.restore()
      await Promise.all(servers.started.map(stop))
    },
  }
  try {
    app.exports = await importModule(file)
  } catch (error) {
    app.failure = error instanceof Error ? error : new Error(String(error))
  } finally {
    watch.stop()
  }
  return app
}

async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href
  try {
    return (await import(url)) as Record<string, unknown>
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION' || !/\.[cm]?tsx?$/.test(file)) throw error
    const tsx = appModule('tsx')
    if (!tsx) {
      throw new Error(
        `node ${process.version} cannot load TypeScript by itself (Node 22.18 and later can): install tsx in the app (npm install --save-dev tsx), which latchkey doctor then uses, or point doctor at the compiled JavaScript`,
      )
    }
    // What `node --import tsx` loads: importing it registers tsx's loader for what is imported next.
    await import(tsx)
    // Another URL for the same file: node keeps the failed import under the first one.
    return (await import(`${url}?latchkey-doctor`)) as Record<string, unknown>
  }
}

/** A package as the app in the working directory would import it, or undefined. */
function appModule(name: string): string | undefined {
  try {
    return pathToFileURL(createRequire(join(process.cwd(), 'package.json')).resolve(name)).href
  } catch {
    return undefined
  }
}

/** Every `listen` of a node server (node:http, Express, Hono's node server) binds 127.0.0.1 on a free port instead. */
function redirectListen(): { started: Server[]; restore(): void } {
  const original = Server.prototype.listen
  const started: Server[] = []
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    started.push(this)
    const done = args.findLast((arg) => typeof arg === 'function') as (() => void) | undefined
    return done ? original.call(this, { port: 0, host: '127.0.0.1' }, done) : original.call(this, { port: 0, host: '127.0.0.1' })
  } as typeof original
  return { started, restore: () => void (Server.prototype.listen = original) }
}

function stop(server: Server): Promise<void> {
  return new Promise((done) => {
    if (!server.listening) return done()
    server.close(() => done())
    ;(server as Server & { closeAllConnections?: () => void }).closeAllConnections?.()
  })
}
