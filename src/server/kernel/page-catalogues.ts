/**
 * The shipped pages' catalogues but English, each a dynamic `import()`, so a bundler makes each
 * language a chunk of its own and an instance loads only the languages it is configured with
 * (as the client's src/components/language-files.ts does for the elements). English is static:
 * page-language.ts checks the app's messages against its keys at start-up.
 */
import type { Language, PageMessages } from '../../locales/index.js'

export const pageCatalogues: Record<Exclude<Language, 'en'>, () => Promise<{ default: PageMessages }>> = {
  es: () => import('../../locales/es/pages.js'),
  fr: () => import('../../locales/fr/pages.js'),
  de: () => import('../../locales/de/pages.js'),
  'pt-BR': () => import('../../locales/pt-BR/pages.js'),
  ja: () => import('../../locales/ja/pages.js'),
  'zh-Hans': () => import('../../locales/zh-Hans/pages.js'),
  ar: () => import('../../locales/ar/pages.js'),
  he: () => import('../../locales/he/pages.js'),
}
