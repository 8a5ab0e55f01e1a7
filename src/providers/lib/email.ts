import type { EmailConfig, SendVerificationRequestParams } from '../../core/types.js'

/** Options common to the built-in email providers: any `EmailConfig` field overrides its default. */
export type EmailUserConfig = Partial<Omit<EmailConfig, 'type' | 'options'>>

/** Escapes text for HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** The sign-in message: a subject, a plain-text body and a simple HTML body with the link, and the code where there is one. */
export function signInMessage(params: { url: string; identifier?: string; code?: string; codeExpires?: Date }): { subject: string; text: string; html: string } {
  const host = new URL(params.url).host
  const { code } = params
  const minutes = params.codeExpires ? Math.max(1, Math.round((params.codeExpires.getTime() - Date.now()) / 60_000)) : undefined
  const within = minutes ? ` within ${minutes} minute${minutes === 1 ? '' : 's'}` : ''
  const subject = `Sign in to ${host}`
  const codeText = code ? `\nOr enter this code where you typed your address${within}:\n${code}\n` : ''
  const text = `Sign in to ${host}\n\nOpen this link to sign in:\n${params.url}\n${codeText}\nIf you did not ask for this email, you can ignore it.\n`
  const link = escapeHtml(params.url)
  const codeHtml = code
    ? `\n<p>Or enter this code where you typed your address${escapeHtml(within)}:</p>\n<p style="font-size: 28px; letter-spacing: 6px; font-weight: bold; font-family: monospace;">${escapeHtml(code)}</p>`
    : ''
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; padding: 24px;">
<p>Sign in to <strong>${escapeHtml(host)}</strong></p>
<p><a href="${link}" style="display: inline-block; padding: 10px 18px; background: #346df1; color: #fff; border-radius: 5px; text-decoration: none;">Sign in</a></p>${codeHtml}
<p style="color: #666; font-size: 13px;">If you did not ask for this email, you can ignore it.<br>Or copy this link: ${link}</p>
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
