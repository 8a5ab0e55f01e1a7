/**
 * The language of the server's own pages: the visitor's `Accept-Language` matched against the
 * configured `languages`, each with its catalogue (src/locales/<tag>/pages.ts) under the app's
 * `messages`. Whatever the header holds, a page is answered: in the first configured language
 * when nothing matches.
 */
import { AuthError, configurationError } from '../../core/errors.js'
import { fill, isRtl, negotiate } from '../../core/locale.js'
import type { AuthConfig, Logger } from '../../core/types.js'
import { languages as shipped, type PageMessages, type Plural } from '../../locales/index.js'
import en from '../../locales/en/pages.js'
import { pageCatalogues } from './page-catalogues.js'
import { requestKey } from './state.js'
import type { Context, LatchkeyPlugin, PageKey, PageLanguages, PageWords, PluginMessages } from './types.js'

// Declared in types.ts, which the resolved configuration's type needs; re-exported here where they belong.
export type { PageKey, PageLanguages, PageWords } from './types.js'

export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function wordsOf(lang: string, messages: PageMessages): PageWords
function wordsOf<K extends string>(lang: string, messages: Record<K, string | Plural>): PluginWords<K>
function wordsOf(lang: string, messages: Record<string, string | Plural>): PluginWords<string> {
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

/** Words of a plugin's own messages (`pluginWords`), as `PageWords` are of the pages'. */
export interface PluginWords<K extends string> {
  readonly lang: string
  readonly dir: 'ltr' | 'rtl'
  text(key: K, values?: Record<string, string | number>): string
  html(key: K, values?: Record<string, string | number>, markup?: Record<string, string>): string
}

const englishKeys = Object.keys(en) as PageKey[]

/** English as shipped: the words of anything written outside a request (signInMessage's default). */
export const englishPageWords = wordsOf('en', en)

/**
 * `languages`, `messages` and `addedLanguages` checked, at start-up, against English's keys; the
 * configured shipped languages but English start loading here (`ready`). One that fails to load
 * is logged and answered in English.
 */
export function resolvePageLanguages(config: Pick<AuthConfig, 'languages' | 'messages' | 'addedLanguages'>, logger: Logger): PageLanguages {
  const added = new Map<string, PageMessages>()
  for (const [tag, messages] of Object.entries(config.addedLanguages ?? {})) {
    checkTag(tag, 'addedLanguages')
    const missing = englishKeys.filter((key) => !isMessage(messages?.[key]))
    if (missing.length) throw configurationError(`latchkey: addedLanguages["${tag}"] lacks ${missing.join(', ')}; a language added must have every page message`)
    checkKeys(messages, `addedLanguages["${tag}"]`)
    added.set(tag, messages)
  }
  const overrides = new Map<string, Partial<PageMessages>>()
  for (const [tag, over] of Object.entries(config.messages ?? {})) {
    if (!(shipped as readonly string[]).includes(tag)) throw configurationError(`latchkey: messages["${tag}"] names no shipped language; expected one of ${shipped.join(', ')} (addedLanguages adds one)`)
    checkKeys(over ?? {}, `messages["${tag}"]`)
    overrides.set(tag, over ?? {})
  }
  const all = [...new Set<string>([...shipped, ...added.keys()])]
  const given = config.languages
  if (given !== undefined && (!Array.isArray(given) || !given.length)) throw configurationError('latchkey: expected languages to be a non-empty list of language tags')
  const tags = given ? given.map((tag) => known(all, tag)) : all
  const withOverrides = (tag: string, messages: PageMessages) => wordsOf(tag, { ...messages, ...overrides.get(tag) })
  const fallback = withOverrides('en', added.get('en') ?? en)
  const words = new Map<string, PageWords>()
  const loads: Promise<void>[] = []
  for (const tag of new Set(tags)) {
    const own = added.get(tag) ?? (tag === 'en' ? en : undefined)
    if (own) {
      words.set(tag, withOverrides(tag, own))
      continue
    }
    const load = pageCatalogues[tag as keyof typeof pageCatalogues]
    loads.push(
      load().then(
        (file) => void words.set(tag, withOverrides(tag, file.default)),
        (error: unknown) => {
          logger.error(new AuthError('Configuration', `latchkey: the "${tag}" pages' catalogue (src/locales/${tag}/pages) failed to load; its pages are answered in English. Check that the package's files are all deployed`, { cause: error, status: 500 }))
          words.set(tag, fallback)
        },
      ),
    )
  }
  const languages: PageLanguages = { tags, words, loaded: !loads.length, ready: Promise.resolve(), fallback }
  if (loads.length) languages.ready = Promise.all(loads).then(() => void (languages.loaded = true))
  return languages
}

function checkTag(tag: string, option: string): void {
  try {
    Intl.getCanonicalLocales(tag)
  } catch {
    throw configurationError(`latchkey: ${option} names ${JSON.stringify(tag)}, which is not a language tag (BCP 47, like "pt-BR")`)
  }
}

function known(all: string[], tag: unknown): string {
  const found = typeof tag === 'string' && all.find((t) => t.toLowerCase() === tag.toLowerCase())
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
    const { tags, words: all, fallback } = ctx.config.pageLanguages
    // A language not loaded yet is English: a route that needs words waits for `ready` (latchkey.ts).
    return all.get(negotiate(acceptedLanguages(ctx.incoming.header('accept-language')), tags) ?? tags[0]) ?? fallback
  })
}

/**
 * A plugin's words in this request's page language: its messages in that language, each key it
 * lacks in English. The page's language is chosen as for the built-in pages.
 */
export function pluginWords<K extends string>(ctx: Context, messages: PluginMessages<K>): PluginWords<K> {
  const lang = pageWords(ctx).lang
  const own = lang === 'en' ? undefined : messages[lang]
  return wordsOf<K>(lang, own ? { ...messages.en, ...own } : messages.en)
}

/** At start-up: a plugin's messages have English whole, and other languages only English's keys. */
export function checkPluginMessages(plugin: Pick<LatchkeyPlugin, 'id' | 'messages'>): void {
  const messages = plugin.messages
  if (messages === undefined) return
  const where = `plugin "${plugin.id}" messages`
  if (!messages || typeof messages !== 'object' || !messages.en || typeof messages.en !== 'object') throw configurationError(`latchkey: ${where} need English ("en") with every key`)
  const keys = Object.keys(messages.en)
  for (const [key, value] of Object.entries(messages.en)) if (!isMessage(value)) throw configurationError(`latchkey: ${where}.en.${key} must be a string (or a plural object with "other")`)
  for (const [tag, list] of Object.entries(messages)) {
    if (tag === 'en') continue
    checkTag(tag, where)
    for (const [key, value] of Object.entries(list ?? {})) {
      if (!keys.includes(key)) throw configurationError(`latchkey: ${where}.${tag} has "${key}", which English lacks`)
      if (!isMessage(value)) throw configurationError(`latchkey: ${where}.${tag}.${key} must be a string (or a plural object with "other")`)
    }
  }
}
