/**
 * `<latchkey-sso-setup>`'s words: a catalogue of their own (src/locales/<tag>/sso.ts) on top of
 * the account settings elements' (profile-words.ts), so only a page showing that element, an
 * organization's admin's, loads them. English comes with the element; another shipped language's
 * file is fetched the first time it speaks it (`<tag>-sso`).
 */
import type { AuthClient } from '../client/index.js'
import { fill } from '../core/locale.js'
import en from '../locales/en/sso.js'
import { languages, type SsoMessages } from '../locales/index.js'
import { profileWordsFor, sayProfile, type ProfileKey } from './profile-words.js'
import { languageFile, type Words } from './words.js'

export type SsoKey = ProfileKey | keyof SsoMessages

/** `tag`'s settings words with the element's added: English's, the shipped language's file, then the app's own. */
export async function ssoWordsFor(client: AuthClient, tag: string): Promise<Words> {
  const words = await profileWordsFor(client, tag)
  const file = words.lang !== 'en' && (languages as readonly string[]).includes(words.lang) ? await languageFile(`${words.lang}-sso`) : undefined
  return { lang: words.lang, messages: { ...en, ...(file as SsoMessages | undefined), ...words.messages } }
}

/** `key`'s message in `words` (made by ssoWordsFor), its `{names}` filled from `values`. */
export const saySso = (words: Words, key: SsoKey, values?: Record<string, unknown>) =>
  key in en ? fill(words.lang, words.messages[key as keyof SsoMessages] ?? en[key as keyof SsoMessages], values) : sayProfile(words, key as ProfileKey, values)
