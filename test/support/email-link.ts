/** A person at a sign-in link's page: reads its form and clicks its button, as a browser on the site would. */
import type { Jar } from './jar.js'

/** The form of the link's page (link-page.ts): where it posts and its hidden fields; undefined when the answer is no such page. */
export async function linkPageForm(response: Response): Promise<{ action: string; fields: Record<string, string> } | undefined> {
  if (response.status !== 200 || !/text\/html/.test(response.headers.get('content-type') ?? '')) return
  const html = await response.text()
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]
  if (!action) return
  const fields: Record<string, string> = {}
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[name] = unescape(value)
  return { action: unescape(action), fields }
}

const unescape = (text: string) => text.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))

/** Clicks the page's button: a same-origin form POST. */
export async function confirmLinkPage(jar: Jar, page: Response): Promise<Response> {
  const form = await linkPageForm(page)
  if (!form) throw new Error(`Expected the sign-in link's page, got ${page.status} ${page.headers.get('location') ?? page.headers.get('content-type')}`)
  return jar.postForm(form.action, form.fields, { origin: jar.origin, 'sec-fetch-site': 'same-origin' })
}

/** Opens a sign-in link and, where it answers with its page, clicks the button. */
export async function followEmailLink(jar: Jar, path: string): Promise<Response> {
  const first = await jar.get(path)
  return first.status === 200 ? confirmLinkPage(jar, first) : first
}
