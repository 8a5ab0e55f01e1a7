/**
 * The ESM build's language files: a static `import()` each, so a bundler makes each language a
 * chunk of its own, loaded only when an element speaks it; and the account settings elements'
 * words (`<tag>-profile`) the same way, loaded only where one of those elements speaks it. (The
 * drop-in script has its own loader: drop-in.ts.)
 */
import type { ElementMessages, ProfileMessages } from '../locales/index.js'
import { useLoader } from './words.js'

const files: Record<string, () => Promise<{ default: ElementMessages | ProfileMessages }>> = {
  es: () => import('../locales/es/elements.js'),
  fr: () => import('../locales/fr/elements.js'),
  de: () => import('../locales/de/elements.js'),
  'pt-BR': () => import('../locales/pt-BR/elements.js'),
  ja: () => import('../locales/ja/elements.js'),
  'zh-Hans': () => import('../locales/zh-Hans/elements.js'),
  ar: () => import('../locales/ar/elements.js'),
  he: () => import('../locales/he/elements.js'),
  'es-profile': () => import('../locales/es/profile.js'),
  'fr-profile': () => import('../locales/fr/profile.js'),
  'de-profile': () => import('../locales/de/profile.js'),
  'pt-BR-profile': () => import('../locales/pt-BR/profile.js'),
  'ja-profile': () => import('../locales/ja/profile.js'),
  'zh-Hans-profile': () => import('../locales/zh-Hans/profile.js'),
  'ar-profile': () => import('../locales/ar/profile.js'),
  'he-profile': () => import('../locales/he/profile.js'),
}

useLoader((file) => files[file]())
