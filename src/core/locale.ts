/**
 * Choosing a language and filling in a message: shared by the elements (the page's languages)
 * and the server's pages (`Accept-Language`).
 */
import type { Plural } from '../locales/index.js'

/** Language, script and region with the likely script filled in: `zh-CN` is `zh-Hans`, `zh-TW` `zh-Hant`. */
function likely(tag: string): Intl.Locale | undefined {
  try {
    return new Intl.Locale(tag).maximize()
  } catch {
    return undefined
  }
}

/**
 * The first of `wanted` (best first) that `available` has: the same tag, else the same language
 * and script (`pt` and `pt-PT` take `pt-BR`, `zh-CN` takes `zh-Hans`, `zh-TW` none). None: undefined.
 */
export function negotiate(wanted: readonly string[], available: readonly string[]): string | undefined {
  const offered = available.map((tag) => [tag, likely(tag)] as const)
  for (const tag of wanted) {
    const exact = available.find((a) => a.toLowerCase() === tag.toLowerCase())
    if (exact) return exact
    const want = likely(tag)
    const near = want && offered.find(([, l]) => l && l.language === want.language && l.script === want.script)
    if (near) return near[0]
  }
  return undefined
}

/** Right-to-left scripts' languages: Arabic, Hebrew, Persian, Urdu, Pashto, Yiddish, Dhivehi, Sorani, Sindhi, Uyghur. */
export const isRtl = (tag: string) => /^(ar|he|iw|fa|ur|ps|yi|dv|ckb|sd|ug)\b/i.test(tag)

/** `message` in `lang` with its `{names}` filled in from `values`; a plural picks its form by `values.count`. */
export function fill(lang: string, message: string | Plural, values: Record<string, unknown> = {}): string {
  const text = typeof message === 'string' ? message : (message[new Intl.PluralRules(lang).select(Number(values.count))] ?? message.other)
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all))
}
