/**
 * The TXT lookup a domain's proof needs. The app may give its own (`organizations({ resolveTxt })`:
 * a DNS-over-HTTPS client on a runtime without DNS, a resolver of its choice); the default is
 * node:dns's, reached through `process.getBuiltinModule` so the plugin keeps no static `node:`
 * import and still loads on a Web-only runtime, where verifying then answers 501 `NotSupported`.
 */
import { AuthError } from 'latchkey/server'

/** node:dns's shape: each TXT record as its strings (a long one is split in chunks of 255). */
export type ResolveTxt = (name: string) => Promise<string[][]>

interface NodeDns {
  promises: { Resolver: new (options?: { timeout?: number; tries?: number }) => { resolveTxt: ResolveTxt } }
}

const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:dns') as NodeDns | undefined

/** The runtime's resolver, bounded (2 s a try, 2 tries), or undefined where the runtime has none. */
export function defaultResolveTxt(): ResolveTxt | undefined {
  if (!builtin) return undefined
  const resolver = new builtin.promises.Resolver({ timeout: 2000, tries: 2 })
  return (name) => resolver.resolveTxt(name)
}

/** Codes that mean "no such record", as node:dns names them: nothing to log. */
const noRecord = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME'])

/**
 * The TXT records at `name`, each joined from its chunks; [] when there are none. A lookup that
 * fails otherwise (timeout, SERVFAIL) is `failed`: the caller answers as for no record, and logs it.
 */
export async function lookUpTxt(resolve: ResolveTxt | undefined, name: string, timeoutMs: number): Promise<{ records: string[]; failed?: string }> {
  if (!resolve) {
    throw new AuthError('NotSupported', 'Verifying a domain needs a DNS resolver: give organizations({ resolveTxt }) on a runtime without node:dns', { status: 501 })
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const answer = await Promise.race([
      resolve(name),
      new Promise<never>((_, fail) => (timer = setTimeout(() => fail(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' })), timeoutMs))),
    ])
    return { records: (Array.isArray(answer) ? answer : []).slice(0, 50).map((chunks) => (Array.isArray(chunks) ? chunks.join('') : String(chunks))) }
  } catch (error) {
    const code = String((error as { code?: unknown })?.code ?? '')
    return noRecord.has(code) ? { records: [] } : { records: [], failed: code || (error as Error)?.message || 'unknown' }
  } finally {
    clearTimeout(timer)
  }
}
