import type { EmailConfig, SendVerificationRequestParams, Theme } from '../../core/types.js'
import { englishPageWords, type PageWords } from '../../server/kernel/page-language.js'
import { renderEmail, type EmailMessage } from '../../server/kernel/email-message.js'

/** Options common to the built-in email providers: any `EmailConfig` field overrides its default. */
export type EmailUserConfig = Partial<Omit<EmailConfig, 'type' | 'options'>>

/**
 * The sign-in email (the server's template, kernel/email-message.ts): the app's name from `theme`
 * (else the link's host), the link as its one button, the code where there is one, when each
 * expires; in `words`' language (the server passes the request's), else English. `now`: the clock
 * the expiries were set by (the server's), else this one.
 */
export function signInMessage(
  params: { url: string; expires: Date; code?: string; codeExpires?: Date; theme?: Theme; now?: number },
  words: PageWords = englishPageWords,
): EmailMessage {
  const host = new URL(params.url).host
  const now = params.now ?? Date.now()
  const seconds = (date: Date) => Math.max(0, (date.getTime() - now) / 1000)
  const { code, codeExpires } = params
  return renderEmail(words, { ...params.theme, name: params.theme?.name ?? host }, host, {
    subject: 'emailSubject',
    lead: 'emailLead',
    action: { label: 'signIn', url: params.url },
    code: code ? { lead: 'emailCode', value: code } : undefined,
    expiry: { link: seconds(params.expires), code: code && codeExpires ? seconds(codeExpires) : undefined },
    footer: 'emailIgnore',
  })
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
