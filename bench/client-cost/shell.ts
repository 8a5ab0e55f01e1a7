import type { PageScripts } from './bundles.js'

/**
 * The one page every client renders into: `#who` gets "signed in as <email>" (or "signed out"),
 * and a small inline script notes the first instant that text is in the DOM (ms after navigation
 * start), the same way for every client; `started` is when the page's first script ran, the
 * document being there. The entry's static chunks are preloaded, as Vite's built HTML does. `#view` is the second view a navigation within the app shows.
 */
export const shell = ({ entry, preload }: PageScripts) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>client cost</title>
<script>window.started = performance.now()</script>
${preload.map((p) => `<link rel="modulepreload" href="${p}">`).join('')}
<main id="who">loading</main><section id="view"></section>
<script>
const who = document.getElementById('who')
new MutationObserver(() => {
  if (window.known === undefined && who.textContent.startsWith('signed in as ')) window.known = performance.now()
}).observe(who, { childList: true, subtree: true, characterData: true })
</script>
<script type="module" src="${entry}"></script></html>`
