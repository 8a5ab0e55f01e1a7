/**
 * The page's end of the worker's comlink API. The worker may be stopped or replaced at any
 * moment, and a stopped worker does not wake for a message on an old port: so every call has a
 * deadline, and a late call, or `controllerchange`, re-binds through a new MessagePort posted to
 * the controller (which does wake it). Returns null without service workers; `get` throws when no worker controls the page.
 */
import { wrap, type Remote } from 'comlink'
import type { SessionEngine } from './types.js'

export function workerBridge(scriptUrl: string): SessionEngine | null {
  const container = navigator.serviceWorker
  if (!container) return null
  container.register(scriptUrl).catch(() => {})
  let remote: Remote<SessionEngine> | undefined
  let port: MessagePort | undefined
  const unbind = () => {
    port?.close()
    remote = port = undefined
  }
  container.addEventListener('controllerchange', unbind)
  const bind = (): Remote<SessionEngine> | undefined => {
    const controller = container.controller
    if (!remote && controller) {
      const channel = new MessageChannel()
      controller.postMessage({ latchkey: 'connect' }, [channel.port2])
      port = channel.port1
      remote = wrap<SessionEngine>(port)
    }
    return remote
  }
  return {
    async get() {
      for (const deadline of [1000, 10_000]) {
        const api = bind()
        if (!api) break
        let timer: any
        const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, deadline)))
        const state = await Promise.race([api.get(), late]).finally(() => clearTimeout(timer))
        if (state) return state
        unbind()
      }
      throw new Error('worker')
    },
  }
}
