/**
 * A service worker for the page's worker bridge, in Node: latchkey's own worker code
 * (sw/index.ts) on a fake scope, reached through MessagePorts that deliver on a microtask.
 * A stopped worker's ports stay dead; a message to its controller starts it again, as a browser does.
 */
import { installLatchkey } from '../../../sw/index.js'
import type { WorkerScope } from '../../../sw/scope.js'
import { origin } from './browser-fakes.js'

type Listener = (event: { data: unknown }) => void

/** One end of a MessageChannel: holds messages until its `onmessage` is set; drops them once closed. */
class FakePort {
  other?: FakePort
  closed = false
  /** Messages handed to this end's listener. */
  delivered = 0
  #listener?: Listener
  #queue: unknown[] = []
  get onmessage(): Listener | undefined {
    return this.#listener
  }
  set onmessage(listener: Listener | undefined) {
    this.#listener = listener
    for (const data of this.#queue.splice(0)) this.#deliver(data)
  }
  postMessage(data: unknown): void {
    const to = this.other
    if (this.closed || !to || to.closed) return
    const copy = structuredClone(data)
    queueMicrotask(() => to.#receive(copy))
  }
  close(): void {
    this.closed = true
  }
  #receive(data: unknown) {
    if (this.closed) return
    if (this.#listener) this.#deliver(data)
    else this.#queue.push(data)
  }
  #deliver(data: unknown) {
    this.delivered++
    this.#listener?.({ data })
  }
}

export class FakeMessageChannel {
  port1 = new FakePort()
  port2 = new FakePort()
  constructor() {
    this.port1.other = this.port2
    this.port2.other = this.port1
  }
}

/** `navigator.serviceWorker`: the controller, and `controllerchange` when the test replaces it. */
export class FakeContainer extends EventTarget {
  controller: FakeWorker | null = null
  replace(worker: FakeWorker | null): void {
    this.controller = worker
    this.dispatchEvent(new Event('controllerchange'))
  }
}

export class FakeWorker {
  /** Times the worker's code started (a stopped worker starts again on a message). */
  starts = 0
  /** Connect messages posted to this controller. */
  connects = 0
  #ports: FakePort[] = []
  #listeners: ((event: { data: unknown; ports: FakePort[] }) => void)[] = []
  #running = false

  /** The page's calls that reached this worker's code, over every port it was given. */
  get calls(): number {
    return this.#ports.reduce((sum, port) => sum + port.delivered, 0)
  }

  postMessage(data: unknown, transfer: FakePort[]): void {
    this.connects++
    if (!this.#running) this.#start()
    this.#ports.push(...transfer)
    for (const listener of this.#listeners) listener({ data, ports: transfer })
  }

  /** The browser stops the worker: its ports are dead, its state gone. */
  stop(): void {
    this.#running = false
    this.#listeners = []
    for (const port of this.#ports) port.close()
  }

  #start() {
    this.#running = true
    this.starts++
    const scope = {
      location: new URL(origin),
      clients: { matchAll: async () => (this.#running ? [{}] : []), claim: async () => {} },
      skipWaiting: async () => {},
      addEventListener: (type: string, listener: (event: any) => void) => void (type === 'message' && this.#listeners.push(listener)),
    }
    installLatchkey({ basePath: '/auth' }, scope as unknown as WorkerScope)
  }
}
