/**
 * GET {basePath}/health/live and {basePath}/health/ready, for a load balancer's checks and an
 * orchestrator's probes. Live: the process answers. Ready: it should be sent requests: not
 * draining (`auth.drain()`, which latchkey/node's `gracefulShutdown` calls), and the adapter's
 * `ping` answers within `readyTimeoutMs`. They are answered before the Host is checked (a probe
 * names the backend's own address), read no cookie, build no URL, count against no rate limit,
 * and say nothing but the state: why the store did not answer goes to the log, once per outage.
 */
import { AuthError } from '../../core/errors.js'
import { instanceKey } from '../kernel/state.js'
import { jsonHeaders, reply, type Reply } from '../kernel/respond.js'
import type { Incoming, ResolvedConfig } from '../kernel/types.js'

/** How long readiness waits for the adapter's ping: less than a load balancer's check timeout. */
export const readyTimeoutMs = 2000

const draining = instanceKey<true>('draining')
/** The ping under way: concurrent checks share it, so checks cost the database one query at a time. */
const pinging = instanceKey<Promise<boolean> | undefined>('readiness ping under way')
/** Whether the last ping failed: the failure is logged on the way down only. */
const down = instanceKey<boolean>('store did not answer the last ping')

/** From now on readiness answers 503: the load balancer stops sending this instance requests. */
export function markDraining(config: ResolvedConfig): void {
  draining.set(config, true)
}

const answer = (status: number, state: string): Reply => reply(status, { ...jsonHeaders }, JSON.stringify({ status: state }))

/** The health route's answer for a path under `{basePath}/health`, or undefined for any other path. */
export function healthAnswer(incoming: Incoming, config: ResolvedConfig): Promise<Reply> | undefined {
  const path = incoming.pathname
  const base = config.basePath + '/health'
  if (path !== base && !path.startsWith(base + '/')) return undefined
  if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
    return Promise.resolve(reply(405, { ...jsonHeaders, allow: 'GET' }, JSON.stringify({ error: 'UnknownAction', message: `${base}/live and ${base}/ready take GET` })))
  }
  const which = path.slice(base.length + 1)
  if (which === 'live') return Promise.resolve(answer(200, 'live'))
  if (which === 'ready') return ready(config).then((ok) => (ok ? answer(200, 'ready') : answer(503, 'not ready')))
  return Promise.resolve(reply(404, { ...jsonHeaders }, JSON.stringify({ error: 'UnknownAction', message: `Expected ${base}/live or ${base}/ready` })))
}

async function ready(config: ResolvedConfig): Promise<boolean> {
  if (draining.has(config)) return false
  const ping = config.adapter?.ping
  if (!ping) return true
  let under = pinging.find(config)
  if (!under) {
    under = pinged(config, () => ping.call(config.adapter)).finally(() => pinging.set(config, undefined))
    pinging.set(config, under)
  }
  return under
}

async function pinged(config: ResolvedConfig, ping: () => unknown): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${readyTimeoutMs} ms`)), readyTimeoutMs)
  })
  try {
    await Promise.race([ping(), late])
    if (down.find(config)) config.logger.debug('the store answers the readiness check again')
    down.set(config, false)
    return true
  } catch (cause) {
    if (!down.find(config)) config.logger.error(new AuthError('StoreUnavailable', 'Readiness: the store did not answer its ping; GET /health/ready answers 503 until it does', { cause, status: 503 }))
    down.set(config, true)
    return false
  } finally {
    clearTimeout(timer)
  }
}
