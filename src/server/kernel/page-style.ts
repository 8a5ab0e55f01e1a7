/**
 * The built-in pages' stylesheet: the elements' theme (src/components/styles.ts) under the same
 * `--latchkey-*` names and with the same primary button, set from the configuration's `theme`:
 * `brandColor` and `buttonText` are the primary and its words (without `buttonText`, white or
 * near-black, whichever reads better), `colorScheme` the page's `color-scheme` (`auto`: the
 * visitor's `prefers-color-scheme`), each colour a light-dark() pair. Only the checked theme
 * (theme.ts: hex colours) reaches it, never anything of the request.
 */
import { readableOn } from '../../core/readable-on.js'
import type { Theme } from '../../core/types.js'

/** The CSS `color-scheme` of each `theme.colorScheme`. */
export const colorSchemes = { auto: 'light dark', light: 'light', dark: 'dark' } as const

const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i
/** `--name:value` for a checked hex colour; nothing for another (theme.ts lets no other through). */
const colour = (name: string, value: string | undefined) => (value && hex.test(value) ? `;--latchkey-${name}:${value}` : '')

const rules = `
body{font:var(--latchkey-font,16px/1.5 system-ui,sans-serif);background:light-dark(#f3f4f6,#0d1117);color:var(--latchkey-text,light-dark(#1f2328,#e6edf3));display:grid;place-items:center;min-block-size:100vh;margin:0}
main{box-sizing:border-box;background:var(--latchkey-surface,light-dark(#fff,#161b22));border-radius:12px;box-shadow:0 2px 12px #0002;padding:2rem;inline-size:min(22rem,92vw)}
main *{overflow-wrap:anywhere}
.brand{display:flex;align-items:center;gap:.6rem;margin-block:0 1.25rem;font-weight:600}.brand img{block-size:2rem;inline-size:auto;max-inline-size:10rem}
h1{font-size:1.3rem;margin-block:0 1rem}form{display:grid;gap:.5rem;margin-block:0 1rem}[hidden]{display:none!important}
label{display:grid;gap:.25rem;font-size:.9rem}
input,button{font:inherit;padding-block:.6rem;padding-inline:.8rem;border-radius:var(--latchkey-radius,.5rem);border:1px solid var(--latchkey-border,color-mix(in srgb,currentColor 52%,transparent))}
input{background:var(--latchkey-field,transparent);color:inherit}
button{display:flex;align-items:center;justify-content:center;gap:.6em;cursor:pointer;background:var(--latchkey-primary,light-dark(#1f2328,#f0f3f6));color:var(--latchkey-primary-text,light-dark(#fff,#16181c));border-color:var(--latchkey-primary,light-dark(#1f2328,#f0f3f6));font-weight:600}
button[style*="--latchkey-brand:"]{background:var(--latchkey-brand);color:var(--latchkey-brand-text,#fff);border-color:var(--latchkey-brand)}
button img{inline-size:1.25em;block-size:1.25em;flex:none}
:is(button,input,a,summary):focus-visible{outline:2px solid var(--latchkey-focus,light-dark(#2563eb,#7cb0ff));outline-offset:2px}
a{color:inherit;text-underline-offset:.2em}.error{color:var(--latchkey-error,light-dark(#b42318,#ff9389))}.notice{color:light-dark(#0a5c2b,#6ee7a0)}
.links{display:flex;flex-wrap:wrap;gap:.5rem 1rem;font-size:.9rem;margin-block:0 1rem}
hr{border:0;border-block-start:1px solid color-mix(in srgb,currentColor 20%,transparent);margin:1rem 0}hr:has(+[hidden]){display:none}
@media (forced-colors:active){button{border:1px solid ButtonText}}`

/** The stylesheet of a page in `theme`. */
export function pageStyle(theme: Theme): string {
  const text = theme.buttonText ?? readableOn(theme.brandColor)
  return `:root{color-scheme:${colorSchemes[theme.colorScheme ?? 'auto']}${colour('primary', theme.brandColor)}${colour('primary-text', text)}}${rules}`
}
