/**
 * The ESM build's language files: a static `import()` each, so a bundler makes each language a
 * chunk of its own, loaded only when an element speaks it. The settings elements' words
 * (`<tag>-profile`, `<tag>-sso`) are listed in a chunk of their own (settings-language-files.ts),
 * fetched only when one of those elements speaks another language: a sign-in page carries none of
 * their names. (The drop-in script has its own loader: drop-in.ts.)
 */
import type { ElementMessages } from '../locales/index.js'
import { useLoader } from './words.js'

const files: Record<string, () => Promise<{ default: ElementMessages }>> = {
  es: () => import('../locales/es/elements.js'),
  fr: () => import('../locales/fr/elements.js'),
  de: () => import('../locales/de/elements.js'),
  'pt-BR': () => import('../locales/pt-BR/elements.js'),
  ja: () => import('../locales/ja/elements.js'),
  'zh-Hans': () => import('../locales/zh-Hans/elements.js'),
  ar: () => import('../locales/ar/elements.js'),
  he: () => import('../locales/he/elements.js'),
}

useLoader((file) => files[file]?.() ?? import('./settings-language-files.js').then((m) => m.files[file]!()))
