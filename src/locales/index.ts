/**
 * The languages latchkey ships, and the shape of a catalogue. Each language is a folder:
 * `elements.ts` (what the sign-in elements say; the browser loads it when a page asks for the
 * language), `profile.ts` (what the account settings elements add, `<latchkey-profile>` and its
 * sections; loaded only where one of them is shown), `sso.ts` (what `<latchkey-sso-setup>` adds;
 * loaded only with it) and `pages.ts` (what the server's own HTML
 * pages say).
 */
import type elements from './en/elements.js'
import type profile from './en/profile.js'
import type pages from './en/pages.js'
import type sso from './en/sso.js'

/** The words for each plural category `Intl.PluralRules` gives; `other` is always there. */
export type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

/** Every key of the English catalogue, each a string, or a plural where English has one. */
export type ElementMessages = { [K in keyof typeof elements]: (typeof elements)[K] extends string ? string : Plural }

/** Every key of the English account settings catalogue (`<latchkey-profile>` and its sections), the same way. */
export type ProfileMessages = { [K in keyof typeof profile]: (typeof profile)[K] extends string ? string : Plural }

/** Every key of the English catalogue of `<latchkey-sso-setup>`, the same way. */
export type SsoMessages = { [K in keyof typeof sso]: (typeof sso)[K] extends string ? string : Plural }

/** Every key of the English pages' catalogue, the same way. */
export type PageMessages = { [K in keyof typeof pages]: (typeof pages)[K] extends string ? string : Plural }

/** The languages latchkey ships, as BCP 47 tags. */
export const languages = ['en', 'es', 'fr', 'de', 'pt-BR', 'ja', 'zh-Hans', 'ar', 'he'] as const
export type Language = (typeof languages)[number]
