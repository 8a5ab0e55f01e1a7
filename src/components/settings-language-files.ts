/**
 * The ESM build's language files of the settings elements, each a chunk of its own: the account
 * settings elements' words (`<tag>-profile`) and `<latchkey-sso-setup>`'s (`<tag>-sso`). This list
 * is itself loaded only when one of them first speaks another language (language-files.ts).
 */
import type { ProfileMessages, SsoMessages } from '../locales/index.js'

export const files: Record<string, () => Promise<{ default: ProfileMessages | SsoMessages }>> = {
  'es-profile': () => import('../locales/es/profile.js'),
  'fr-profile': () => import('../locales/fr/profile.js'),
  'de-profile': () => import('../locales/de/profile.js'),
  'pt-BR-profile': () => import('../locales/pt-BR/profile.js'),
  'ja-profile': () => import('../locales/ja/profile.js'),
  'zh-Hans-profile': () => import('../locales/zh-Hans/profile.js'),
  'ar-profile': () => import('../locales/ar/profile.js'),
  'he-profile': () => import('../locales/he/profile.js'),
  'es-sso': () => import('../locales/es/sso.js'),
  'fr-sso': () => import('../locales/fr/sso.js'),
  'de-sso': () => import('../locales/de/sso.js'),
  'pt-BR-sso': () => import('../locales/pt-BR/sso.js'),
  'ja-sso': () => import('../locales/ja/sso.js'),
  'zh-Hans-sso': () => import('../locales/zh-Hans/sso.js'),
  'ar-sso': () => import('../locales/ar/sso.js'),
  'he-sso': () => import('../locales/he/sso.js'),
}
