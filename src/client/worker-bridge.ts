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
  let link: Link | undefined
  const unbind = () => {
    link?.port.close()
    link = undefined
  }
  container.addEventListener('controllerchange', unbind)
  /**
   * A port to the controller, and whether a latchkey worker answered on it. Calls are posted on
   * the port at once, before that answer: the port holds them until the worker takes it, so a
   * page's first read costs one trip to the worker, not two (a reload's time to a known session).
   */
  const bind = (): Link | undefined => {
    const controller = container.controller
    if (!controller) return
    if (link) return link
    const channel = new MessageChannel()
    const port = channel.port1
    let next = 0
    const calls = new Map<number, (answer: { state?: SessionState; error?: string }) => void>()
    const remote: SessionEngine = {
      get: (after) =>
        new Promise((resolve, reject) => {
          const id = ++next
          calls.set(id, ({ state, error }) => (state ? resolve(state) : reject(new Error(error))))
          port.postMessage({ id, after })
        }),
    }
    const bound: Link = { port, remote, ready: Promise.resolve(undefined) }
    bound.ready = new Promise<SessionEngine | undefined>((resolve) => {
      const timer = setTimeout(() => {
        bound.answered ??= false
        resolve(undefined)
      }, 1000)
      port.onmessage = ({ data }) => {
        if (data?.latchkey === 'ready') {
          // A late `ready` (a worker slow to start) still serves the calls that follow.
          clearTimeout(timer)
          bound.answered = true
          bound.ready = Promise.resolve(remote)
          return resolve(remote)
        }
        calls.get(data?.id)?.(data)
        calls.delete(data?.id)
      }
    })
    controller.postMessage({ latchkey: 'connect', session: sessionUrl }, [channel.port2])
    return (link = bound)
  }
  return {
    serving: async () => !!(await bind()?.ready),
    async get(after) {
      for (const deadline of [1000, 10_000]) {
        const bound = bind()
        // No controller, or one that did not answer `ready` in time: not latchkey's.
        if (!bound || bound.answered === false) break
        const call = bound.remote.get(after)
        call.catch(() => {})
        // No `ready` in time: the controller is not latchkey's, and the page keeps its own engine.
        if (!(await bound.ready)) break
        let timer: any
        const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, deadline)))
        const state = await Promise.race([call, late]).finally(() => clearTimeout(timer))
        if (state) return state
        unbind()
      }
      throw new Error('worker')
    },
  }
}

interface Link {
  port: MessagePort
  remote: SessionEngine
  /** The remote once the worker said `ready`; undefined when it did not within a second. */
  ready: Promise<SessionEngine | undefined>
  /** Whether the worker said `ready`: unknown while waiting, false once a second passed without it. */
  answered?: boolean
}
