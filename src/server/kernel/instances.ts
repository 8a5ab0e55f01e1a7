/**
 * The Latchkey instances an app's server module creates, for `latchkey doctor <module>`: it starts
 * watching, imports the module, then checks each instance's configuration. Nothing is kept unless
 * a doctor watches. The list lives on globalThis under a global symbol, so an app that loads
 * another copy of latchkey than the doctor's still reports to it.
 */
import type { AuthConfig } from '../../core/types.js'

export interface WatchedInstance {
  config: AuthConfig
  /** The handler `Latchkey(config)` returned; unset when it threw at start-up. */
  handler?: unknown
  /** Whether the node binding (toNodeHandler) took the handler, which gives each request its socket's address. */
  nodeBinding: boolean
}

const key = Symbol.for('latchkey.doctor.instances')
const slot = globalThis as { [key]?: WatchedInstance[] }

/** Starts a new watch; `stop` ends it. */
export function watchInstances(): { instances: WatchedInstance[]; stop(): void } {
  const instances: WatchedInstance[] = []
  slot[key] = instances
  return { instances, stop: () => void (slot[key] === instances && delete slot[key]) }
}

/** Called by `Latchkey(config)` before anything else, so a configuration that fails to start is still seen. */
export function reportInstance(config: AuthConfig): WatchedInstance | undefined {
  const watching = slot[key]
  if (!watching) return undefined
  const instance: WatchedInstance = { config, nodeBinding: false }
  watching.push(instance)
  return instance
}

/** Called by the node binding with the handler it serves. */
export function reportNodeBinding(handler: unknown): void {
  for (const instance of slot[key] ?? []) if (instance.handler === handler) instance.nodeBinding = true
}
