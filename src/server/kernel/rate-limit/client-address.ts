/**
 * The client's network address, for per-client limits. A Web `Request` does not carry one, so:
 * - behind proxies you run (`trustProxy`), it is read from `X-Forwarded-For`;
 * - under latchkey's node:http binding, `toRequest` records the socket's address against the
 *   Request object itself (a WeakMap, not a header: a header could be forged by the client under
 *   any other binding, and would need stripping under this one);
 * - elsewhere (Deno, Bun, workers) the app passes `getClientAddress`.
 * No address means per-client rules do not apply: lumping unknown clients into one bucket would
 * let one of them lock out all the others.
 */
import { configurationError } from '../../../core/errors.js'
import type { GetClientAddress } from '../../../core/rate-limit.js'
import { isLoopback } from '../public-origin.js'
const socketAddresses = new WeakMap<Request, string>()

/** Called by the node binding with `req.socket.remoteAddress`. */
export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address) socketAddresses.set(request, address)
}

export type { GetClientAddress } from '../../../core/rate-limit.js'

/**
 * `trustProxy`:
 * - `false` (default): the address the node binding saw; `X-Forwarded-For` is ignored, since any
 *   client can send it.
 * - `true`: the first (leftmost) `X-Forwarded-For` entry. Only safe when your proxy replaces the
 *   header rather than appending to it.
 * - a number n: the n-th entry from the right, for n proxies of yours that each append; the
 *   entries left of it were written by the client and are not believed.
 */
export function defaultClientAddress(trustProxy: boolean | number = false, warn: (message: string) => void = () => {}): GetClientAddress {
  if (typeof trustProxy === 'number' && (!Number.isInteger(trustProxy) || trustProxy < 1)) {
    throw configurationError(`rateLimit.trustProxy: expected true, false or a number of proxies >= 1, got ${trustProxy}`)
  }
  const told = new Set<'none' | 'proxy'>()
  return (request) => {
    const forwarded = request.headers.get('x-forwarded-for')
    if (trustProxy !== false) {
      const hops = (forwarded ?? '')
        .split(',')
        .map((hop) => hop.trim())
        .filter(Boolean)
      const hop = trustProxy === true ? hops[0] : hops[hops.length - trustProxy]
      if (hop) return hop
    }
    const address = socketAddresses.get(request) ?? null
    // Words for the log only: neither the header nor the host decides anything here. The host
    // is parsed only when a warning not yet given applies: on a loopback host (development, a
    // dev proxy, tests) one client is the normal case.
    const kind = address === null ? 'none' : trustProxy === false && forwarded && proxyLike.test(address) ? 'proxy' : null
    if (kind && !told.has(kind) && !isLoopback(new URL(request.url).host)) {
      told.add(kind)
      warn(kind === 'none' ? noAddress : behindProxy(address!))
    }
    return address
  }
}

/** Where a proxy in front of the app usually connects from: loopback or a private network. */
const proxyLike = /^(127\.|::1$|::ffff:127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::ffff:10\.|::ffff:192\.168\.|f[cd][0-9a-f]{2}:)/i

const noAddress =
  'RateLimitNoClientAddress: per-client rate limits are off: the requests carry no client address (a Web handler outside latchkey/node, as on Bun, Deno or Workers). ' +
  'Pass rateLimit.getClientAddress, e.g. (request) => request.headers.get("cf-connecting-ip") on Workers (docs/configuration.md#rate-limits).'

const behindProxy = (address: string) =>
  `RateLimitBehindProxy: the requests come from ${address} with X-Forwarded-For set, so a proxy is in front, but rateLimit.trustProxy is off: every client counts as that one address and one busy client can lock out all the others. ` +
  'Set rateLimit.trustProxy to the number of proxies in front (docs/deployment.md#proxies-and-client-addresses).'


/**
 * Where a request's client address comes from under these options, as `resolveRateLimit` and
 * `defaultClientAddress` above decide it: the app's `getClientAddress`; else X-Forwarded-For
 * under `trustProxy`; else the socket's, which only the node binding records. `latchkey doctor`
 * reads it to say when per-client limits cannot tell clients apart.
 */
export function clientAddressSource(options: { getClientAddress?: unknown; trustProxy?: boolean | number }): 'app' | 'forwarded' | 'socket' {
  if (options.getClientAddress !== undefined) return 'app'
  return options.trustProxy !== undefined && options.trustProxy !== false ? 'forwarded' : 'socket'
}
