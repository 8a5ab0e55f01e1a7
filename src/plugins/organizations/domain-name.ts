/**
 * A domain as the organizations plugin keeps it: lowercase ASCII (an IDN in its punycode form,
 * by the runtime's own URL parser, so every runtime agrees), no trailing dot, two labels or more,
 * never an IP address, a wildcard or a public suffix alone ("com", "co.uk").
 */

/** Two-label public suffixes common enough to refuse without a full list (`isPublicSuffix` adds one). */
const commonSuffixes = new Set(
  (
    'co.uk org.uk ac.uk gov.uk me.uk ltd.uk plc.uk net.uk sch.uk nhs.uk com.au net.au org.au edu.au gov.au id.au co.nz org.nz net.nz ' +
    'co.jp ne.jp or.jp ac.jp go.jp co.kr or.kr com.br net.br org.br gov.br com.cn net.cn org.cn gov.cn com.mx org.mx co.in net.in org.in ' +
    'gov.in co.za org.za com.tr com.sg com.hk com.tw co.il org.il com.ar com.pl com.ua co.id or.id com.my com.ph com.vn com.sa com.eg ' +
    'github.io gitlab.io herokuapp.com vercel.app netlify.app pages.dev workers.dev appspot.com web.app firebaseapp.com blogspot.com ' +
    'cloudfront.net azurewebsites.net amazonaws.com s3.amazonaws.com onrender.com fly.dev'
  ).split(' '),
)

const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
/** Characters no host name has, and that a URL would read as something else (a path, a port, a user). */
const notInAName = /[\s/\\?#@:[\]%*,;"'<>^`{|}\u0000-\u001f\u007f]/
export const maxDomainInput = 300

/** `input` as a domain name, or null where it is none (or one no organization may claim). */
export function normalizeDomain(input: unknown, isPublicSuffix?: (domain: string) => boolean): string | null {
  if (typeof input !== 'string') return null
  const given = input.trim()
  if (!given || given.length > maxDomainInput || notInAName.test(given)) return null
  let host: string
  try {
    host = new URL(`http://${given}/`).hostname
  } catch {
    return null
  }
  if (host.endsWith('.')) host = host.slice(0, -1)
  const labels = host.split('.')
  if (host.length > 253 || labels.length < 2 || !labels.every((l) => label.test(l))) return null
  // An IPv4 address (the URL parser reads "0x7f.1" as one too): no top-level domain is all digits.
  if (/^(?:0x[0-9a-f]*|[0-9]+)$/.test(labels.at(-1)!)) return null
  if (commonSuffixes.has(host) || isPublicSuffix?.(host)) return null
  return host
}

/** The domain of an address (after its last "@"), normalized; null where it has none. */
export function domainOfAddress(email: string | null | undefined): string | null {
  const at = email?.lastIndexOf('@') ?? -1
  return at > 0 ? normalizeDomain(email!.slice(at + 1)) : null
}
