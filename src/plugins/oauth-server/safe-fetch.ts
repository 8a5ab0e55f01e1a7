/**
 * One GET of a URL a client named (its client ID metadata document), safe to make from inside the
 * app's network: https only, the host resolved and every address checked public (no loopback,
 * private, link-local, CGNAT, multicast or reserved range, an IPv4 address inside IPv6 checked as
 * IPv4), the connection made to the checked address (a second DNS answer cannot swap in another:
 * no rebinding), no redirect followed, a size cap and a time cap on the whole exchange.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import { request } from 'node:https'
import { BlockList, isIP } from 'node:net'

export interface SafeFetchLimits {
  maxBytes: number
  timeoutMs: number
  /** Loopback addresses allowed (tests only: a document served on 127.0.0.1). Other private ranges stay refused. */
  allowLoopback: boolean
  /** Extra trusted certificate authorities, PEM (tests: a self-signed document server). */
  ca?: string
}

export interface Fetched {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** Why a fetch was refused; `reason` is safe to show the client. */
export class FetchRefused extends Error {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'FetchRefused'
  }
}

const blocked = new BlockList()
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4')
for (const [net, bits] of [['::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8]] as const) {
  blocked.addSubnet(net, bits, 'ipv6')
}
const loopback = new BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')

/** The IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), or undefined; ::/96 is refused whole. */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address)
  if (!groups) return undefined
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0)
  if (zero(0, 5) && groups[5] === 0xffff) return v4(groups[6]!, groups[7]!)
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) return v4(groups[6]!, groups[7]!)
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!)
  return undefined
}

/** Eight 16-bit groups of an IPv6 address (dotted IPv4 tail allowed), or undefined. */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '')
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail, more] = text.split('::')
  if (more !== undefined) return undefined
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
  const left = part(head)
  const right = part(tail)
  const fill = tail === undefined ? 0 : 8 - left.length - right.length
  const groups = [...left, ...Array<number>(Math.max(fill, 0)).fill(0), ...right]
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined
}

/** True when the address is one a fetch may reach. */
export function isPublicAddress(address: string, allowLoopback = false): boolean {
  const family = isIP(address)
  if (family === 0) return false
  const v4 = family === 6 ? embeddedIpv4(address) : address
  if (v4 !== undefined && isIP(v4) === 4) {
    if (allowLoopback && loopback.check(v4, 'ipv4')) return true
    return !blocked.check(v4, 'ipv4')
  }
  if (allowLoopback && loopback.check(address, 'ipv6')) return true
  return !blocked.check(address, 'ipv6')
}

/** The host's addresses, every one checked; the first is the one to connect to. */
async function checkedAddress(hostname: string, limits: SafeFetchLimits): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, '')
  const answers = isIP(host) ? [{ address: host, family: isIP(host) }] : await dnsLookup(host, { all: true, verbatim: true }).catch(() => [])
  if (!answers.length) throw new FetchRefused(`the host ${hostname} does not resolve`)
  for (const a of answers) if (!isPublicAddress(a.address, limits.allowLoopback)) throw new FetchRefused(`the host ${hostname} resolves to a private or reserved address`)
  return answers[0]!
}

/** GET `url` (https), answered whole, or FetchRefused. */
export async function safeFetch(url: URL, limits: SafeFetchLimits, accept = 'application/json'): Promise<Fetched> {
  if (url.protocol !== 'https:') throw new FetchRefused('the URL must use https')
  const deadline = AbortSignal.timeout(limits.timeoutMs)
  const pinned = await Promise.race([checkedAddress(url.hostname, limits), aborted(deadline)])
  return new Promise<Fetched>((resolve, reject) => {
    const fail = (reason: string) => {
      req.destroy()
      reject(new FetchRefused(reason))
    }
    const req = request(
      url,
      {
        method: 'GET',
        headers: { accept, 'user-agent': 'latchkey-oauth-server' },
        // The connection goes to the address checked above, whatever DNS says now.
        lookup: (_host, options, done) => (options.all ? done(null, [pinned]) : done(null, pinned.address, pinned.family)),
        servername: isIP(url.hostname.replace(/^\[|\]$/g, '')) ? undefined : url.hostname,
        signal: deadline,
        ...(limits.ca ? { ca: limits.ca } : {}),
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0
        if (status >= 300 && status < 400) return fail(`the URL answered a redirect (${status}); redirects are not followed`)
        const length = Number(response.headers['content-length'])
        if (length > limits.maxBytes) return fail(`the document is larger than ${limits.maxBytes} bytes`)
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > limits.maxBytes) fail(`the document is larger than ${limits.maxBytes} bytes`)
          else chunks.push(chunk)
        })
        response.on('end', () => resolve({ status, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }))
        response.on('error', () => fail(deadline.aborted ? `the URL did not answer within ${limits.timeoutMs} ms` : 'the connection failed'))
      },
    )
    req.on('error', () => fail(deadline.aborted ? `the URL did not answer within ${limits.timeoutMs} ms` : 'the connection failed'))
    req.end()
  })
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new FetchRefused('the host did not resolve in time')), { once: true }))
}
