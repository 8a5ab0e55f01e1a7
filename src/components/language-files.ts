/**
 * The ESM build's language files: a static `import()` each, so a bundler makes each language a
 * chunk of its own, loaded only when an element speaks it. (The drop-in script has its own
 * loader: drop-in.ts.)
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

useLoader((tag) => files[tag]())
