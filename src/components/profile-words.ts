/**
 * The account settings elements' words (`<latchkey-profile>`, `<latchkey-identity>`,
 * `<latchkey-password>`, `<latchkey-passkeys>`, `<latchkey-mfa>`, `<latchkey-sessions>`,
 * `<latchkey-accounts>`): a catalogue of their own (src/locales/<tag>/
 * profile.ts), so a sign-in page never loads them. English comes with these elements; another
 * shipped language's file is fetched the first time one of them speaks it (`<tag>-profile`).
 */
import type { AuthClient } from '../client/index.js'
import { fill } from '../core/locale.js'
import en from '../locales/en/profile.js'
import { languages, type ProfileMessages } from '../locales/index.js'
import { languageFile, wordsFor, type Words } from './words.js'

export type ProfileKey = keyof ProfileMessages

/** `tag`'s words with these elements' added: English's, the shipped language's file, then the app's own (its language, its overrides). */
export async function profileWordsFor(client: AuthClient, tag: string): Promise<Words> {
  const words = await wordsFor(client, tag)
  const file = words.lang !== 'en' && (languages as readonly string[]).includes(words.lang) ? await languageFile(`${words.lang}-profile`) : undefined
  return { lang: words.lang, messages: { ...en, ...(file as ProfileMessages | undefined), ...words.messages } }
}

/** `key`'s message in `words` (made by profileWordsFor), its `{names}` filled from `values`. */
export const sayProfile = ({ lang, messages }: Words, key: ProfileKey, values?: Record<string, unknown>) => fill(lang, messages[key] ?? en[key], values)
