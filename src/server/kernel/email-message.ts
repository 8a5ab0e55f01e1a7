/**
 * The one template of every email latchkey writes (the sign-in link and code, the password
 * emails): the app's name (and logo) as the header, one sentence, one button with the link, the
 * code once in a large box, when they expire, and a closing line; the same content as plain text.
 * Every word comes from the page catalogues, in the request's language and direction; everything
 * from the configuration or the request is escaped.
 */
import { readableOn } from '../../core/readable-on.js'
import { escapeHtml, pageWords, pluginWords, type PageKey, type PageWords } from './page-language.js'
import { requestTheme, type RequestTheme } from './theme.js'
import type { Context, PluginMessages } from './types.js'

export interface EmailMessage {
  subject: string
  text: string
  html: string
}

/** What an email says, as catalogue keys; `{name}` in them is the app's name, `{host}` the origin's host. */
export interface EmailContent {
  subject: PageKey
  /** One sentence: what the email is for. */
  lead: PageKey
  /** The one button: its words and the link. */
  action?: { label: PageKey; url: string }
  /** A code to type instead, with the sentence that leads to it. */
  code?: { lead: PageKey; value: string }
  /** Seconds the link works, and the code where there is one. */
  expiry?: { link: number; code?: number }
  /** The closing line: what to do when the reader did not ask for this. */
  footer: PageKey
}

const defaultBrand = '#346df1'
const font = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
const mono = "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace;"

/** "10 minutes", "24 hours", "7 days" in `lang`'s words. */
function span(seconds: number, lang: string): string {
  const [count, unit] = seconds < 7200 ? [Math.max(1, Math.round(seconds / 60)), 'minute'] : seconds < 172_800 ? [Math.round(seconds / 3600), 'hour'] : [Math.round(seconds / 86400), 'day']
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'long', useGrouping: false }).format(count)
}

/** The email `content` says, for `theme`'s app, in `words`' language. */
export function renderEmail(words: PageWords, theme: RequestTheme, host: string, content: EmailContent): EmailMessage {
  const values = { name: theme.name, host }
  // A dot followed by a zero-width space: mail clients do not turn a name like "app.example.com" into a second link.
  const name = escapeHtml(theme.name).replace(/\./g, '.&#8203;')
  const say = (key: PageKey) => words.text(key, values)
  const sayHtml = (key: PageKey) => words.html(key, { host }, { name })
  const { action, code } = content
  const expiry = content.expiry && expirySentence(words, content.expiry)
  const subject = say(content.subject)

  const text = [theme.name, say(content.lead), action && `${say(action.label)}: ${action.url}`, code && `${say(code.lead)}\n${code.value}`, expiry, say(content.footer)].filter(Boolean).join('\n\n') + '\n'

  const brand = theme.brandColor ?? defaultBrand
  const buttonText = theme.buttonText ?? readableOn(brand)!
  const row = (padding: string, style: string, inner: string) => `<tr><td style="padding:${padding};${style}">${inner}</td></tr>\n`
  const logo = theme.logo ? `<img src="${escapeHtml(theme.logo)}" alt="" height="40" style="display:block;height:40px;width:auto;max-width:200px;border:0;margin:0 0 12px;">` : ''
  const rows =
    row('28px 32px 0', '', `${logo}<h1 style="margin:0;font-size:20px;line-height:1.3;font-weight:600;color:#18181b;">${name}</h1>`) +
    row('16px 32px 0', 'font-size:16px;line-height:1.5;', sayHtml(content.lead)) +
    (action
      ? row('24px 32px 0', '', `<a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 28px;background-color:${escapeHtml(brand)};color:${escapeHtml(buttonText)};border-radius:6px;font-size:16px;font-weight:600;line-height:1.25;text-decoration:none;">${escapeHtml(say(action.label))}</a>`)
      : '') +
    (code
      ? row('24px 32px 0', 'font-size:15px;line-height:1.5;', sayHtml(code.lead)) +
        row('8px 32px 0', '', `<div dir="ltr" style="display:inline-block;padding:12px 20px;background-color:#f4f4f5;border:1px solid #e4e4e7;border-radius:6px;${mono}font-size:30px;line-height:1.2;font-weight:700;letter-spacing:6px;color:#18181b;">${escapeHtml(code.value)}</div>`)
      : '') +
    (expiry ? row('24px 32px 0', 'font-size:14px;line-height:1.5;color:#52525b;', escapeHtml(expiry)) : '') +
    row('24px 32px 28px', '', `<p style="margin:0;padding-top:16px;border-top:1px solid #e4e4e7;font-size:13px;line-height:1.5;color:#71717a;">${sayHtml(content.footer)}</p>`)
  const html = `<!doctype html>
<html lang="${escapeHtml(words.lang)}" dir="${words.dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background-color:#f4f4f5;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f5;"><tr><td align="center" style="padding:32px 16px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" dir="${words.dir}" style="max-width:480px;background-color:#ffffff;border-radius:8px;border-top:4px solid ${escapeHtml(brand)};${font}color:#18181b;text-align:${words.dir === 'rtl' ? 'right' : 'left'};">
${rows}</table>
</td></tr></table>
</body>
</html>
`
  return { subject, text, html }
}

/** "The link works for 24 hours, the code for 10 minutes." in `words`' language. */
function expirySentence(words: PageWords, expiry: { link: number; code?: number }): string {
  const duration = span(expiry.link, words.lang)
  return expiry.code === undefined ? words.text('linkWorksFor', { duration }) : words.text('linkAndCodeWorkFor', { duration, codeMinutes: Math.max(1, Math.round(expiry.code / 60)) })
}

/** What a plugin's email says, as keys of its own messages (`LatchkeyPlugin.messages`); `values` fill their `{names}`. */
export interface PluginEmailContent<K extends string> {
  subject: K
  /** One sentence: what the email is for. */
  lead: K
  /** The one button: its words and the link. */
  action?: { label: K; url: string }
  /** Seconds the link works: said in latchkey's own words. */
  expiry?: { link: number }
  /** The closing line: what to do when the reader did not ask for this. */
  footer: K
  /** Filled into the messages' `{names}` (escaped in the HTML), beside `{name}` (the app's) and `{host}`. */
  values?: Record<string, string | number>
}

/**
 * A plugin's email in latchkey's one template (the app's name and logo, one sentence, one
 * button, the expiry, a closing line; HTML and text), in the request's page language.
 */
export function pluginEmail<K extends string>(ctx: Context, messages: PluginMessages<K>, content: PluginEmailContent<K>): EmailMessage {
  const own = pluginWords(ctx, messages)
  const pages = pageWords(ctx)
  const values = content.values ?? {}
  const mine = (key: string): key is K => Object.hasOwn(messages.en, key)
  const words: PageWords = {
    lang: pages.lang,
    dir: pages.dir,
    text: (key, v) => (mine(key) ? own.text(key, { ...values, ...v }) : pages.text(key, v)),
    html: (key, v, markup) => (mine(key) ? own.html(key, { ...values, ...v }, markup) : pages.html(key, v, markup)),
  }
  return renderEmail(words, requestTheme(ctx), new URL(ctx.origin).host, content as unknown as EmailContent)
}
