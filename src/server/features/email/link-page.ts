/**
 * The page a sign-in link shows to any request but the asking browser's: "Sign in as x@y.z on
 * this device?", with one button that posts the link's token back. Fetching the page, or
 * following every link in it, uses nothing; only the POST from the page does. The page carries a
 * proof (an HMAC over the address, the token and the hour it was made) that the POST must bring
 * back, and the POST must come from the page's own origin, so another site cannot post a link
 * of its own into a visitor's browser (login CSRF).
 */
import { AuthError } from '../../../core/errors.js'
import type { Context } from '../../kernel/context.js'
import { hmacHex, timingSafeEqual } from '../../kernel/crypto.js'
import type { PageWords } from '../../kernel/page-language.js'
import { escapeHtml, page } from '../../kernel/page-html.js'

/** How long the page may be left open before its button is used. */
const proofLifetimeMs = 60 * 60_000

const proofOf = (secret: string, identifier: string, token: string, issued: number) => hmacHex(secret, `email-page|${identifier}|${token}|${issued}`)

export async function pageProof(ctx: Context, identifier: string, token: string): Promise<string> {
  const issued = Math.floor(ctx.now / 1000)
  return `${issued}.${await proofOf(ctx.config.secrets[0], identifier, token, issued)}`
}

/** Refuses a POST that did not come from the link's page on this origin, in time. */
export async function checkPageProof(ctx: Context, identifier: string, token: string, proof: unknown): Promise<void> {
  if (!postedFromOwnPage(ctx)) throw new AuthError('Verification', 'A sign-in link is confirmed only from its own page on this site', { status: 403 })
  const [issuedText, mac] = typeof proof === 'string' ? proof.split('.') : []
  const issued = Number(issuedText)
  if (!mac || !Number.isInteger(issued) || ctx.now - issued * 1000 > proofLifetimeMs || issued * 1000 > ctx.now + 60_000) {
    throw new AuthError('Verification', 'Expected the proof of the sign-in link page; open the link again', { status: 403 })
  }
  for (const secret of ctx.config.secrets) {
    if (timingSafeEqual(mac, await proofOf(secret, identifier, token, issued))) return
  }
  throw new AuthError('Verification', 'The proof of the sign-in link page does not match this link; open the link again', { status: 403 })
}

/**
 * A browser says where a form post comes from: `Sec-Fetch-Site` where it sends it, else
 * `Origin`. A request with neither is not a browser's, and a browser never lets a page forge them.
 */
function postedFromOwnPage(ctx: Context): boolean {
  const site = ctx.incoming.header('sec-fetch-site')
  if (site !== null) return site === 'same-origin'
  return ctx.incoming.header('origin') === ctx.origin
}

export interface LinkPage {
  identifier: string
  token: string
  callbackUrl: string
  /** Where the button posts: this provider's callback. */
  action: string
  proof: string
  /** The address of the user this browser is signed in as now, when it is another. */
  signedInAs?: string
}

export function linkConfirmPage(ctx: Context, words: PageWords, { identifier, token, callbackUrl, action, proof, signedInAs }: LinkPage): string {
  const hidden = Object.entries({ token, email: identifier, callbackUrl, proof })
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('')
  const switching = signedInAs ? `<p>${words.html('signedInAs', {}, { who: `<strong>${escapeHtml(signedInAs)}</strong>` })}</p>` : ''
  const stay = signedInAs ? `<p><a href="${escapeHtml(callbackUrl)}">${words.html('staySignedInAs', { who: signedInAs })}</a></p>` : ''
  return page(
    ctx,
    words,
    words.text('signIn'),
    `<h1>${words.html('signInHereAs', { email: identifier })}</h1>${switching}<form method="post" action="${escapeHtml(action)}">${hidden}<button>${words.html('signInAs', { email: identifier })}</button></form>${stay}`,
  )
}
