/**
 * The elements' languages: which one an element speaks, and its catalogue. English is bundled;
 * each other shipped language is a file of its own, loaded the first time an element needs it
 * (`useLoader`: the ESM build's chunks, or the drop-in's files beside its script). The account
 * settings elements' words are files of their own too (`<tag>-profile`, profile-words.ts).
 */
import type { AuthClient } from '../client/index.js'
import en from '../locales/en/elements.js'
import { languages, type ElementMessages, type ProfileMessages, type SsoMessages } from '../locales/index.js'
import { fill, negotiate } from '../core/locale.js'

/**
 * A language and its catalogue: what an element says things with. The account settings words
 * are there where the app gave them, and always in the settings elements (profile-words.ts).
 */
export interface Words {
  lang: string
  messages: ElementMessages & Partial<ProfileMessages> & Partial<SsoMessages>
}

export type Key = keyof ElementMessages

export const english: Words = { lang: 'en', messages: en }

/** `key`'s message in `words`, its `{names}` filled from `values`. */
export const say = ({ lang, messages }: Words, key: Key, values?: Record<string, unknown>) => fill(lang, messages[key], values)

/** A language file by name: `<tag>` (the elements' words), `<tag>-profile` (the settings elements') or `<tag>-sso` (`<latchkey-sso-setup>`'s). */
type Loader = (file: string) => Promise<{ default: ElementMessages | ProfileMessages | SsoMessages }>
/** Without a loader (an entry that sets none), every language is English. */
let loader: Loader = async () => ({ default: en })
/** How the shipped languages other than English arrive (set once by the entry point). */
export const useLoader = (load: Loader) => (loader = load)

/** Each language file, fetched once, when first asked for; a file that cannot be loaded answers undefined. */
const loaded: Record<string, Promise<ElementMessages | ProfileMessages | SsoMessages | undefined>> = {}
export const languageFile = (file: string) => (loaded[file] ??= Promise.resolve(file).then(loader).then((f) => f.default, () => undefined))

/**
 * The language an element speaks: its own `lang`, the client's `locale`, the page's (the
 * closest `lang` above it), the browser's, each matched against the app's languages and the
 * shipped ones; else English.
 */
export function choose(element: HTMLElement, { locale, languages: added }: AuthClient): string {
  const wanted = [element.getAttribute('lang'), locale, element.parentElement?.closest('[lang]')?.getAttribute('lang'), ...navigator.languages]
  return negotiate(wanted.filter((tag) => tag) as string[], [...Object.keys(added ?? {}), ...languages]) ?? 'en'
}

/** `tag`'s words with the app's overrides, English for any key a catalogue lacks; a shipped language's file is fetched once, when first asked for. */
export async function wordsFor({ languages: added, messages }: AuthClient, tag: string): Promise<Words> {
  const own = added?.[tag] ?? (tag === 'en' ? en : ((await languageFile(tag)) as ElementMessages | undefined) ?? en)
  // A language whose file could not be loaded is said, and marked, as English.
  const lang = own === en ? 'en' : tag
  return { lang, messages: { ...en, ...own, ...messages?.[lang as 'en'] } }
}
