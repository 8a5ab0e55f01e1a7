/**
 * The page's end of the worker's session engine. The page's controller may be latchkey's worker,
 * an app's worker that includes it, or a worker that knows nothing of latchkey: a connect
 * message on a new MessagePort asks, a latchkey worker serving this session endpoint answers
 * `ready` on the port, and without that answer in time the page keeps its own engine. The worker
 * may be stopped or replaced at any moment, and a stopped worker does not wake for a message on
 * an old port: so every call has a deadline, and a late call, or `controllerchange`, re-binds
 * through a new port posted to the controller (which does wake it). On the port, a call is
 * `{ id, after }` and its answer `{ id, state }` or `{ id, error }` (sw/index.ts answers).
 */
import type { SessionEngine, SessionState } from './types.js'

export interface WorkerBridge extends SessionEngine {
  /** A latchkey worker serves this page: it sees the page's requests under the basePath pass. */
  serving(): Promise<boolean>
}

export function workerBridge(sessionUrl: string): WorkerBridge | null {
  const container = navigator.serviceWorker
  if (!container) return null
  let link: Promise<SessionEngine | undefined> | undefined
  let port: MessagePort | undefined
  const unbind = () => {
    port?.close()
    link = port = undefined
  }
  container.addEventListener('controllerchange', unbind)
  const bind = async (): Promise<SessionEngine | undefined> => {
    const controller = container.controller
    if (!controller) return
    return (link ??= new Promise((resolve) => {
      const channel = new MessageChannel()
      const own = (port = channel.port1)
      const timer = setTimeout(resolve, 1000)
      own.onmessage = (e) => {
        if (e.data?.latchkey !== 'ready') return
        clearTimeout(timer)
        let next = 0
        const calls = new Map<number, (answer: { state?: SessionState; error?: string }) => void>()
        own.onmessage = ({ data }) => {
          calls.get(data?.id)?.(data)
          calls.delete(data?.id)
        }
        const remote: SessionEngine = {
          get: (after) =>
            new Promise((resolve, reject) => {
              const id = ++next
              calls.set(id, ({ state, error }) => (state ? resolve(state) : reject(new Error(error))))
              own.postMessage({ id, after })
            }),
        }
        // A late answer (a worker slow to start) still serves the calls that follow.
        if (port === own) link = Promise.resolve(remote)
        resolve(remote)
      }
      controller.postMessage({ latchkey: 'connect', session: sessionUrl }, [channel.port2])
    }))
  }
  return {
    serving: async () => !!(await bind()),
    async get(after) {
      for (const deadline of [1000, 10_000]) {
        const api = await bind()
        if (!api) break
        let timer: any
        const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, deadline)))
        const state = await Promise.race([api.get(after), late]).finally(() => clearTimeout(timer))
        if (state) return state
        unbind()
      }
      throw new Error('worker')
    },
  }
}
