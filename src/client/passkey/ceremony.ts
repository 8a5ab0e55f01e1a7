/**
 * One passkey ceremony at a time per page: starting one aborts the one in progress, whether it is
 * still fetching options or waiting in the browser's dialog or autofill (`WebAuthnAbortService`
 * is a page-wide singleton, so this is page-wide too). The autofill is in the background: it
 * never interrupts a ceremony the user started, and gives way to any new one.
 */
import { WebAuthnAbortService } from '@simplewebauthn/browser'

let current: AbortController | undefined
let currentIsBackground = false

/** Aborts the ceremony in progress and returns the signal of a new one; null when a background one must wait its turn. */
export function beginCeremony(background = false): AbortSignal | null {
  if (background && current && !currentIsBackground) return null
  cancelCeremony()
  current = new AbortController()
  currentIsBackground = background
  return current.signal
}

export function cancelCeremony(): void {
  if (current) {
    current.abort()
    current = undefined
    WebAuthnAbortService.cancelCeremony()
  }
}

/** Marks the ceremony of `signal` as done, unless another has replaced it. */
export function endCeremony(signal: AbortSignal): void {
  if (current?.signal === signal) current = undefined
}

let queue: Promise<unknown> = Promise.resolve()

/**
 * Runs requests that write the challenge cookie one after another. An aborted ceremony's options
 * request may still reach the server; were it answered after the next ceremony's, its cookie would
 * replace the newer one. So such requests are never aborted mid-flight, only queued.
 */
export function serialized<T>(run: () => Promise<T>): Promise<T> {
  const next = queue.then(run, run)
  queue = next.catch(() => undefined)
  return next
}
