import type { EmailConfig, SendVerificationRequestParams } from '../../core/types.js'
import { englishPageWords, escapeHtml, type PageWords } from '../../server/kernel/page-language.js'

/** Options common to the built-in email providers: any `EmailConfig` field overrides its default. */
export type EmailUserConfig = Partial<Omit<EmailConfig, 'type' | 'options'>>

/**
 * The sign-in message: a subject, a plain-text body and a simple HTML body with the link, and the
 * code where there is one; in `words`' language (the server passes the request's), else English.
 * `now`: the clock the code's expiry was set by (the server's), else this one.
 */
export function signInMessage(
  params: { url: string; identifier?: string; code?: string; codeExpires?: Date; now?: number },
  words: PageWords = englishPageWords,
): { subject: string; text: string; html: string } {
  const host = new URL(params.url).host
  const { code } = params
  const minutes = params.codeExpires ? Math.max(1, Math.round((params.codeExpires.getTime() - (params.now ?? Date.now())) / 60_000)) : undefined
  const duration = minutes && new Intl.NumberFormat(words.lang, { style: 'unit', unit: 'minute', unitDisplay: 'long', useGrouping: false }).format(minutes)
  const codeLead = duration ? words.text('emailCodeWithin', { duration }) : words.text('emailCode')
  const subject = words.text('emailSubject', { host })
  const ignore = words.text('emailIgnore')
  const codeText = code ? `\n${codeLead}\n${code}\n` : ''
  const text = `${subject}\n\n${words.text('emailOpenLink')}\n${params.url}\n${codeText}\n${ignore}\n`
  const link = escapeHtml(params.url)
  const codeHtml = code
    ? `\n<p>${escapeHtml(codeLead)}</p>\n<p style="font-size: 28px; letter-spacing: 6px; font-weight: bold; font-family: monospace;">${escapeHtml(code)}</p>`
    : ''
  const html = `<!doctype html>
<html lang="${escapeHtml(words.lang)}" dir="${words.dir}"><body style="font-family: sans-serif; padding: 24px;">
<p>${words.html('emailSubject', {}, { host: `<strong>${escapeHtml(host)}</strong>` })}</p>
<p><a href="${link}" style="display: inline-block; padding: 10px 18px; background: #346df1; color: #fff; border-radius: 5px; text-decoration: none;">${escapeHtml(words.text('signIn'))}</a></p>${codeHtml}
<p style="color: #666; font-size: 13px;">${escapeHtml(ignore)}<br>${escapeHtml(words.text('emailCopyLink'))} ${link}</p>
</body></html>`
  return { subject, text, html }
}

/** Sends one HTTP request to an email API; a non-2xx answer throws an error naming the provider and the status. */
export async function sendEmailRequest(provider: string, url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, init)
  if (!response.ok) {
    const body = await response.text().catch(() => '')
    throw new Error(`${provider}: sending the sign-in email failed with HTTP ${response.status}${body ? `: ${body.slice(0, 300)}` : ''}`)
  }
  return response
}

/** The value of an option of the provider the server passes in, else of the one built here. */
export function optionOf<T>(params: SendVerificationRequestParams, built: EmailConfig, key: string): T | undefined {
  const fromParams = (params.provider as unknown as Record<string, unknown>)?.[key] ?? params.provider?.options?.[key]
  const fromBuilt = (built as unknown as Record<string, unknown>)[key] ?? built.options?.[key]
  return (fromParams ?? fromBuilt) as T | undefined
}

/** Throws a clear error when a required option is missing. */
export function required<T>(provider: string, name: string, value: T | undefined | null): T {
  if (value === undefined || value === null || value === '') throw new Error(`${provider}: the \`${name}\` option is required`)
  return value
}

/** An HTTP Basic `Authorization` value (ASCII credentials). */
export function basic(user: string, password: string): string {
  return `Basic ${btoa(`${user}:${password}`)}`
}

/** Removes trailing slashes. */
export function trimBase(url: string): string {
  return url.replace(/\/+$/, '')
}

/** The object without its undefined values, so that `{ from: undefined }` keeps the default. */
export function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}
