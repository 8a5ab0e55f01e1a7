/** The frame of every server-rendered page, for the shared routes and the features' own pages alike. */
import { escapeHtml, type PageWords } from './page-language.js'

export { escapeHtml }

/** A page in `words`' language, its direction with it; the style uses logical properties, so it mirrors. */
export function page(words: PageWords, title: string, body: string): string {
  return `<!doctype html><html lang="${escapeHtml(words.lang)}" dir="${words.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font:16px/1.5 system-ui,sans-serif;background:#f5f5f7;color:#1d1d1f;display:grid;place-items:center;min-block-size:100vh;margin:0}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0001;padding:2rem;inline-size:min(22rem,90vw)}
h1{font-size:1.3rem;margin-block:0 1rem}form{display:grid;gap:.5rem;margin-block:0 1rem}
label{display:grid;gap:.25rem;font-size:.9rem}input,button{font:inherit;padding-block:.6rem;padding-inline:.8rem;border-radius:8px;border:1px solid #ccc}
button{background:#1d1d1f;color:#fff;border:0;cursor:pointer}.error{color:#b00020}hr{border:0;border-block-start:1px solid #eee;margin:1rem 0}
</style></head><body><main>${body}</main></body></html>`
}
