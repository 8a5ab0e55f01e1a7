/** The few service-worker globals the worker uses (the DOM lib has no ServiceWorkerGlobalScope). */
export interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void
}

export interface FetchEvent extends ExtendableEvent {
  readonly request: Request
  respondWith(response: Response | Promise<Response>): void
}

export interface WorkerScope {
  readonly location: Location
  readonly clients: { matchAll(options?: { type?: string }): Promise<readonly unknown[]>; claim(): Promise<void> }
  skipWaiting(): Promise<void>
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void
}
