/**
 * The language of the server's own pages: the visitor's `Accept-Language` matched against the
 * configured `languages`, each with its catalogue (src/locales/<tag>/pages.ts) under the app's
 * `messages`. Whatever the header holds, a page is answered: in the first configured language
 * when nothing matches.
 */
import { configurationError } from '../../core/errors.js'
import { fill, isRtl, negotiate } from '../../core/locale.js'
import type { AuthConfig } from '../../core/types.js'
import { languages as shipped, type Language, type PageMessages } from '../../locales/index.js'
import ar from '../../locales/ar/pages.js'
import de from '../../locales/de/pages.js'
import en from '../../locales/en/pages.js'
import es from '../../locales/es/pages.js'
import fr from '../../locales/fr/pages.js'
import he from '../../locales/he/pages.js'
import ja from '../../locales/ja/pages.js'
import ptBR from '../../locales/pt-BR/pages.js'
import zhHans from '../../locales/zh-Hans/pages.js'
import { requestKey } from './state.js'
import type { Context, PageKey, PageLanguages, PageWords } from './types.js'

const catalogues: Record<Language, PageMessages> = { en, es, fr, de, 'pt-BR': ptBR, ja, 'zh-Hans': zhHans, ar, he }

// Declared in types.ts, which the resolved configuration's type needs; re-exported here where they belong.
export type { PageKey, PageLanguages, PageWords } from './types.js'

export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function wordsOf(lang: string, messages: PageMessages): PageWords {
  return {
    lang,
    dir: isRtl(lang) ? 'rtl' : 'ltr',
    text: (key, values) => fill(lang, messages[key], values),
    html(key, values = {}, markup = {}) {
      // The plural form first (its {count} is a number), then the text escaped, then the names.
      const template = escapeHtml(fill(lang, messages[key], 'count' in values ? { count: values.count } : {}))
      return template.replace(/\{(\w+)\}/g, (all, name: string) => (name in markup ? markup[name] : name in values ? escapeHtml(values[name]) : all))
    },
  }
}

const englishKeys = Object.keys(en) as PageKey[]

/** English as shipped: the words of anything written outside a request (signInMessage's default). */
export const englishPageWords = wordsOf('en', en)

/** `languages`, `messages` and `addedLanguages` checked, at start-up. */
export function resolvePageLanguages(config: Pick<AuthConfig, 'languages' | 'messages' | 'addedLanguages'>): PageLanguages {
  const all = new Map<string, PageMessages>(Object.entries(catalogues))
  for (const [tag, messages] of Object.entries(config.addedLanguages ?? {})) {
    checkTag(tag, 'addedLanguages')
    const missing = englishKeys.filter((key) => !isMessage(messages?.[key]))
    if (missing.length) throw configurationError(`latchkey: addedLanguages["${tag}"] lacks ${missing.join(', ')}; a language added must have every page message`)
    checkKeys(messages, `addedLanguages["${tag}"]`)
    all.set(tag, messages)
  }
  for (const [tag, over] of Object.entries(config.messages ?? {})) {
    if (!(shipped as readonly string[]).includes(tag)) throw configurationError(`latchkey: messages["${tag}"] names no shipped language; expected one of ${shipped.join(', ')} (addedLanguages adds one)`)
    checkKeys(over ?? {}, `messages["${tag}"]`)
    all.set(tag, { ...all.get(tag)!, ...over })
  }
  const given = config.languages
  if (given !== undefined && (!Array.isArray(given) || !given.length)) throw configurationError('latchkey: expected languages to be a non-empty list of language tags')
  const tags = given ? given.map((tag) => known(all, tag)) : [...all.keys()]
  return { tags, words: new Map(tags.map((tag) => [tag, wordsOf(tag, all.get(tag)!)])) }
}

function checkTag(tag: string, option: string): void {
  try {
    Intl.getCanonicalLocales(tag)
  } catch {
    throw configurationError(`latchkey: ${option} names ${JSON.stringify(tag)}, which is not a language tag (BCP 47, like "pt-BR")`)
  }
}

function known(all: Map<string, PageMessages>, tag: unknown): string {
  const found = typeof tag === 'string' && [...all.keys()].find((t) => t.toLowerCase() === tag.toLowerCase())
  if (!found) throw configurationError(`latchkey: languages names ${JSON.stringify(tag)}, which is neither shipped (${shipped.join(', ')}) nor in addedLanguages`)
  return found
}

function isMessage(value: unknown): boolean {
  return typeof value === 'string' || (!!value && typeof value === 'object' && typeof (value as { other?: unknown }).other === 'string')
}

/** A key English lacks is a typo the app would never see on a page: say so at start-up. */
function checkKeys(messages: object, option: string): void {
  for (const [key, value] of Object.entries(messages)) {
    if (!(englishKeys as string[]).includes(key)) throw configurationError(`latchkey: ${option} has "${key}", which is no page message`)
    if (!isMessage(value)) throw configurationError(`latchkey: ${option}.${key} must be a string (or a plural object with "other")`)
  }
}

/** A real header is a few dozen bytes: more is read no further than this, nor more than this many ranges. */
const maxHeader = 256
const maxRanges = 16
const range = /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/i
const weight = /^q\s*=\s*(0(\.\d{0,3})?|1(\.0{0,3})?)$/i

/**
 * The tags of an `Accept-Language` header, most wanted first (RFC 9110 12.5.4). `*` and malformed
 * ranges or weights are left out, as is `q=0` (not wanted).
 */
export function acceptedLanguages(header: string | null): string[] {
  if (!header) return []
  // A cut header loses its last, partial, range.
  const read = header.length > maxHeader ? header.slice(0, header.lastIndexOf(',', maxHeader) + 1) : header
  const found: { tag: string; q: number }[] = []
  for (const part of read.split(',').slice(0, maxRanges)) {
    const [tag, ...params] = part.split(';').map((p) => p.trim())
    if (!range.test(tag) || params.length > 1) continue
    let q = 1
    if (params.length) {
      const m = weight.exec(params[0])
      if (!m) continue
      q = Number(m[1])
    }
    if (q > 0) found.push({ tag, q })
  }
  // Array sort is stable: equal weights keep the header's order.
  return found.sort((a, b) => b.q - a.q).map((f) => f.tag)
}

const chosen = requestKey<PageWords>('page words')

/** The words for this request's pages: the best of its `Accept-Language` we have, else the first configured language. */
export function pageWords(ctx: Context): PageWords {
  return chosen.ensure(ctx, () => {
    const { tags, words: all } = ctx.config.pageLanguages
    return all.get(negotiate(acceptedLanguages(ctx.incoming.header('accept-language')), tags) ?? tags[0])!
  })
}
